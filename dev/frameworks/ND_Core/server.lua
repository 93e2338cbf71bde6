local NDCore = { players = {} }
local groups = {} -- Config.groups: name → { label, isJob, ranks = { [weight] = label } }
local db = {}     -- charid → { groups = { [name] = { rank, isJob } } } as saved
local calls = {}
local function count(name) calls[name] = (calls[name] or 0) + 1 end

-- nd_groups and nd_group_ranks arrive 1–2 s after start; no server event says so.
CreateThread(function()
  Wait(1200)
  groups.lspd = { label = 'LSPD', isJob = true, ranks = { 'Cadet', 'Officer', 'Sergeant', 'Lieutenant', 'Chief' } }
  groups.safr = { label = 'SAFR', isJob = true, ranks = { 'Probationary', 'Firefighter', 'Captain' } }
  groups.taxi = { label = 'Taxi', isJob = true, ranks = { 'Driver' } }
end)

function NDCore.doesGroupExist(name) return groups[name] ~= nil end

-- getAllGroups: a list sorted by name, each with its ranks sorted by weight (1-based).
function NDCore.getAllGroups()
  local result = {}
  for name, group in pairs(groups) do
    local ranks = {}
    for weight, label in ipairs(group.ranks) do ranks[#ranks + 1] = { label = label, weight = weight } end
    result[#result + 1] = { name = name, label = group.label, isJob = group.isJob, ranks = ranks }
  end
  table.sort(result, function(a, b) return a.name < b.name end)
  return result
end

local function createCharacter(src, id)
  local row = db[id] or { groups = {} }
  local self = { source = src, id = id, groups = {} }
  -- Every saved group comes back; the job is the one flagged isJob (server/player.lua 494-506).
  for name, g in pairs(row.groups) do
    self.groups[name] = { name = name, rank = g.rank, isJob = g.isJob, label = name }
    if g.isJob then self.job = name end
  end

  -- server/player.lua 405-446. No check that the group exists: label and rank name fall back to
  -- the raw values. A group added without isJob sits beside the job (an admin's
  -- `/setgroup <id> add <group> <rank>`, server/commands.lua 107-145, calls addGroup(group, rank));
  -- one added with isJob clears isJob on every other group, which stay held.
  function self.addGroup(name, rank, customGroup, isJob)
    local groupRank = tonumber(rank) or 1
    local info = groups[name] or {}
    if isJob then for _, g in pairs(self.groups) do g.isJob = nil end end
    self.groups[name] = {
      name = name, label = info.label or name, rank = groupRank,
      rankName = info.ranks and info.ranks[groupRank] or groupRank, isJob = isJob,
    }
    if not isJob then TriggerEvent('ND:updateCharacter', self, 'groups') end
    TriggerEvent('ND:groupAdded', self, self.groups[name])
    return self.groups[name]
  end

  -- server/player.lua 455-470.
  function self.removeGroup(name)
    count('removeGroup')
    local group = self.groups[name]
    if not group then return end
    if self.job == name then self.job = nil end
    self.groups[name] = nil
    TriggerEvent('ND:updateCharacter', self, 'groups')
    TriggerEvent('ND:groupRemoved', self, group)
    return group
  end

  -- server/player.lua 475-490. The same job and rank again is not a no-op: the job is removed and
  -- added back. With keepGroup the old job is not removed: it stays as a plain group beside the new
  -- job (addGroup cleared its isJob), with its rank and its rights.
  function self.setJob(name, rank, customGroup, keepGroup)
    count('setJob')
    if not keepGroup then self.removeGroup(self.job) end
    local job = self.addGroup(name, rank, customGroup, true)
    if job then self.job = job.name end
    TriggerEvent('ND:updateCharacter', self, 'job')
    return job
  end

  -- Not saved until unload or the 10-minute cron: save('groups') writes now.
  function self.save(key)
    count('save')
    if key and key ~= 'groups' then
      print('^1[ND_Core] save: unknown key ' .. tostring(key) .. '^7')
      return
    end
    local saved = {}
    for name, g in pairs(self.groups) do saved[name] = { rank = g.rank, isJob = g.isJob } end
    db[self.id] = { groups = saved }
    Wait(0) -- a database write: a Promise for a JS caller
    return true
  end
  return self
end

-- Players by number: a server id given as a string finds no one.
function NDCore.getPlayer(src) return NDCore.players[src] end

function NDCore.setActiveCharacter(src, id)
  local current = NDCore.players[src]
  if current then
    if current.id == id then return end
    NDCore.unloadCharacter(src)
  end
  local character = createCharacter(src, id)
  NDCore.players[src] = character
  TriggerEvent('ND:characterLoaded', character)
  return character
end

function NDCore.unloadCharacter(src)
  local character = NDCore.players[src]
  if not character then return end
  TriggerEvent('ND:updateCharacter', character, 'metadata')
  character.save()
  TriggerEvent('ND:characterUnloaded', src, character)
  NDCore.players[src] = nil
end
AddEventHandler('playerDropped', function() NDCore.unloadCharacter(source) end)

for _, name in ipairs({ 'getPlayer', 'setActiveCharacter', 'unloadCharacter', 'doesGroupExist', 'getAllGroups' }) do
  exports(name, NDCore[name])
end
exports('StandInSaved', function(id) return db[id] end)
exports('StandInCalls', function() return calls end)
