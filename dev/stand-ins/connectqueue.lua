-- A stand-in for ConnectQueue (Nick78111/ConnectQueue and the qbcore-framework fork,
-- shared/sh_queue.lua), written for the emulator from what that source does, not copied:
--   * `exports.connectqueue:GetQueueExports()` (and the original's `Exports`) return the Queue
--     table; its methods are `Queue:X(...)`, so a caller outside Lua passes `self` first.
--   * playerConnecting defers, waits 0.5 s, then runs the OnJoin callbacks one after another,
--     each until it calls `allow` (a string refuses, anything else lets the player on).
--   * Only then is the player placed, and their priority read, once (AddToQueue -> IsPriority).
--   * Ids are lowercased on the single-id AddPriority path and when priority is read; the table
--     path keeps them as given. A temporary priority lasts `temp` seconds (os.time based).
--   * A refusal or an admission says its text, waits 0.5 s, then calls deferrals.done.
-- Added for tests, not in ConnectQueue: the `Placements` export, what each placement read, and
-- `JoinCallbacks`, the resource name of each OnJoin callback held.
-- Left out: Steam checks, grace priority, the hostname counter, rcon commands, Discord.

local Queue = {}
local priority = {}
local tempPriority = {}
local joinCallbacks = {}
local queueList = {}
local connecting = {}
local placements = {}

local maxPlayers = GetConvarInt('sv_maxclients', 30)
local debug = GetConvar('sv_debugqueue', 'true') == 'true'

local function debugPrint(text)
  if debug then print('QUEUE: ' .. tostring(text)) end
end

local function tempPowerOf(ids)
  for _, id in pairs(ids) do
    local entry = tempPriority[string.lower(id)]
    if entry and os.time() < entry.endTime then return entry.power end
  end
  return false
end

function Queue:IsPriority(ids)
  local power = false
  for _, id in ipairs(ids) do
    local held = priority[string.lower(id)]
    if held then power = held break end
  end
  local temp = tempPowerOf(ids)
  if temp and power then return temp > power and temp or power end
  return temp or power
end

function Queue:AddPriority(id, power, temp)
  if not id then return false end
  if type(id) == 'table' then
    for key, value in pairs(id) do
      if type(key) ~= 'string' or type(value) ~= 'number' then
        debugPrint('Error adding a priority id, invalid data passed')
        return false
      end
      priority[key] = value
    end
    return true
  end
  power = type(power) == 'number' and power or 10
  if temp then
    tempPriority[string.lower(id)] = { power = power, endTime = os.time() + temp }
  else
    priority[string.lower(id)] = power
  end
  return true
end

function Queue:RemovePriority(id)
  if not id then return false end
  priority[string.lower(id)] = nil
  return true
end

function Queue:OnJoin(cb, resource)
  if not cb then return end
  joinCallbacks[#joinCallbacks + 1] = { func = cb, resource = resource }
end

function Queue:GetSize() return #queueList end
function Queue:GetPriorityList() return priority end
function Queue:GetTempPriorityList() return tempPriority end

-- Runs the OnJoin callbacks in turn; the first refusal ends it.
local function canJoin(src)
  for _, entry in ipairs(joinCallbacks) do
    local waiting, refusal = true, nil
    entry.func(src, function(reason)
      if type(reason) == 'string' then refusal = reason end
      waiting = false
    end)
    while waiting do Citizen.Wait(0) end
    if refusal then return refusal end
  end
  return nil
end

-- AddToQueue: the one place priority is read.
local function place(ids, name, src, deferrals)
  local item = { ids = ids, name = name, source = src, deferrals = deferrals, priority = Queue:IsPriority(ids) }
  local at = #queueList + 1
  if item.priority then
    for index, other in ipairs(queueList) do
      if not other.priority or item.priority > other.priority then at = index break end
    end
  end
  table.insert(queueList, at, item)
  placements[#placements + 1] = { id = ids[1], name = name, power = item.priority or 0, position = at }
  debugPrint(('%s[%s] was placed %d/%d in queue'):format(name, ids[1], at, #queueList))
  return item
end

local function removeFromQueue(item)
  for index, other in ipairs(queueList) do
    if other == item then table.remove(queueList, index) return end
  end
end

local function notFull()
  return GetNumPlayerIndices() + #connecting < maxPlayers
end

AddEventHandler('playerConnecting', function(_, _, deferrals)
  local src = source
  local ids = GetPlayerIdentifiers(src)
  local name = GetPlayerName(src)
  deferrals.defer()
  Citizen.Wait(500)

  local function finish(refusal)
    if refusal then deferrals.update(refusal) end
    Citizen.Wait(500)
    if refusal then deferrals.done(refusal) else deferrals.done() end
  end

  if #ids == 0 then return finish("Error: Couldn't retrieve any of your id's, try restarting.") end
  local refusal = canJoin(src)
  if refusal then
    debugPrint(('%s[%s] was blocked from joining; Reason: %s'):format(name, ids[1], refusal))
    return finish(refusal)
  end

  local item = place(ids, name, src, deferrals)
  while true do
    if queueList[1] == item and notFull() then
      removeFromQueue(item)
      connecting[#connecting + 1] = item
      finish(nil)
      for index, other in ipairs(connecting) do
        if other == item then table.remove(connecting, index) break end
      end
      return
    end
    deferrals.update(('You are %d/%d in queue'):format(#queueList, #queueList))
    Citizen.Wait(500)
  end
end)

-- onResourceStop: the callbacks of a stopped resource go, as sh_queue.lua (734-742) removes them:
-- forward over ipairs with table.remove inside, so of two callbacks of one resource side by side
-- the second is skipped and stays behind (calling it later fails, and that player waits for ever).
AddEventHandler('onResourceStop', function(resource)
  for index, entry in ipairs(joinCallbacks) do
    if entry.resource == resource then table.remove(joinCallbacks, index) end
  end
end)

exports('GetQueueExports', function() return Queue end)
exports('Exports', function() return Queue end)
exports('Placements', function() return placements end)
exports('JoinCallbacks', function()
  local names = {}
  for index, entry in ipairs(joinCallbacks) do names[index] = tostring(entry.resource) end
  return names
end)
