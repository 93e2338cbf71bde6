-- shared/jobs.lua: grades keyed by strings.
local Jobs = {
  unemployed = { label = 'Civilian', defaultDuty = true, grades = { ['0'] = { name = 'Freelancer', payment = 10 } } },
  police = {
    label = 'Law Enforcement', type = 'leo', defaultDuty = true,
    grades = {
      ['0'] = { name = 'Recruit', payment = 50 },
      ['1'] = { name = 'Officer', payment = 75 },
      ['2'] = { name = 'Sergeant', payment = 100 },
      ['3'] = { name = 'Lieutenant', payment = 125 },
      ['4'] = { name = 'Chief', isboss = true, payment = 150 },
    },
  },
  ambulance = {
    label = 'EMS', type = 'ems', defaultDuty = true,
    grades = { ['0'] = { name = 'Recruit', payment = 50 }, ['1'] = { name = 'Paramedic', payment = 75 } },
  },
  taxi = { label = 'Taxi', defaultDuty = false, grades = { ['0'] = { name = 'Driver', payment = 30 } } },
}

local QBCore = { Functions = {}, Player = {}, Players = {}, Shared = { Jobs = Jobs } }
-- 'old': qb-core before the 2025 exports and the 2026 refactor (47cf3ac): SetJob fires OnJobUpdate
-- itself, a numeric string finds no player, a drop fires PlayerDropped with the player object.
local OLD = GetConvar('qb_standin_version', 'new') == 'old'
local db = {}    -- citizenid → { job, grade } as saved
local calls = {} -- name → times called

local function count(name) calls[name] = (calls[name] or 0) + 1 end

-- Players are looked up by number; a numeric string works from ebae2c3 (2025) on.
function QBCore.Functions.GetPlayer(src)
  if OLD and type(src) ~= 'number' then return nil end
  return QBCore.Players[tonumber(src)]
end

local function createPlayer(src, citizenid)
  local row = db[citizenid] or { job = 'unemployed', grade = 0 }
  local self = { Functions = {}, PlayerData = { source = src, citizenid = citizenid } }
  local function jobData(name, grade)
    local job = Jobs[name]
    -- An unknown grade is taken silently: level 0, 'No Grades' (grades[tostring(grade)]).
    local g = job.grades[tostring(grade)]
    return {
      name = name, label = job.label, type = job.type, onduty = job.defaultDuty,
      grade = g and { name = g.name, level = tonumber(grade), isboss = g.isboss or false } or { name = 'No Grades', level = 0 },
      payment = g and g.payment or 30,
    }
  end
  self.PlayerData.job = jobData(row.job, row.grade)

  -- Methods are bound: no `self` argument. A non-string job raises an error.
  function self.Functions.SetJob(job, grade)
    count('SetJob')
    job = job:lower()
    grade = grade or '0'
    if not Jobs[job] then return false end
    self.PlayerData.job = jobData(job, grade) -- always resets duty to defaultDuty
    if OLD then
      TriggerEvent('QBCore:Server:OnJobUpdate', src, self.PlayerData.job)
    else
      -- UpdateClient('job'): OnPlayerUpdated, which events.lua re-emits as OnJobUpdate.
      TriggerEvent('QBCore:Server:OnPlayerUpdated', src, 'job', self.PlayerData.job)
    end
    return true
  end

  function self.Functions.SetJobDuty(onDuty)
    count('SetJobDuty')
    self.PlayerData.job.onduty = not not onDuty
    TriggerEvent('QBCore:Server:OnPlayerUpdated', src, 'job', self.PlayerData.job)
  end

  -- SetJob does not save: only Save() writes the row.
  function self.Functions.Save()
    count('Save')
    db[citizenid] = { job = self.PlayerData.job.name, grade = self.PlayerData.job.grade.level }
  end
  return self
end

-- events.lua 200-209: OnPlayerUpdated re-emitted as OnJobUpdate for 'job' and for 'all'.
AddEventHandler('QBCore:Server:OnPlayerUpdated', function(src, key, value)
  if key == 'job' then TriggerEvent('QBCore:Server:OnJobUpdate', src, value) end
  if key == 'all' then TriggerEvent('QBCore:Server:OnJobUpdate', src, value.job) end
end)

-- For tests: QBCore.Player.Login and Logout (multicharacter calls these).
exports('Login', function(src, citizenid)
  local player = createPlayer(src, citizenid)
  QBCore.Players[src] = player
  TriggerEvent('QBCore:Server:PlayerLoaded', player)
  -- UpdateClient() at login: OnJobUpdate fires for the whole player data.
  if not OLD then TriggerEvent('QBCore:Server:OnPlayerUpdated', src, 'all', player.PlayerData) end
  return true
end)
exports('Logout', function(src)
  local player = QBCore.Players[src]
  if not player then return end
  if not OLD then player.Functions.Save() end -- 9d6143c's Logout does not save
  TriggerEvent('QBCore:Server:OnPlayerUnload', src)
  QBCore.Players[src] = nil
end)
AddEventHandler('playerDropped', function()
  local src = source
  local player = QBCore.Players[src]
  if not player then return end
  player.Functions.Save()
  if OLD then
    TriggerEvent('QBCore:Server:PlayerDropped', player)
  else
    TriggerEvent('QBCore:Server:PlayerDropped', src)
    TriggerEvent('QBCore:Server:OnPlayerUnload', src)
  end
  QBCore.Players[src] = nil
end)

exports('GetCoreObject', function() return QBCore end)
exports('StandInSaved', function(cid) return db[cid] end)
exports('StandInCalls', function() return calls end)
