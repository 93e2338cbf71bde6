-- server/player.lua's job functions (SetJob 147-192, SetJobDuty 196-211, SetPlayerPrimaryJob
-- 238-273, AddPlayerToJob 281-337, RemovePlayerFromJob 344-380), Login/Logout, GetPlayer and
-- HasGroup (server/functions.lua 516-521 over shared/functions.lua 29-90).
local MAX_JOBS = GetConvarInt('qbx:max_jobs_per_player', 1)
local REPLACES = GetConvar('qbx:setjob_replaces', 'true') == 'true'

local characters = {} -- citizenid → { citizenid, license, job = name, jobs = { [name] = grade } }
local saved = {}      -- citizenid → what the database holds: { job, grade, jobs }
local players = {}    -- source → player
local calls = {}      -- export name → times called (for tests and the benchmark)

local function count(name) calls[name] = (calls[name] or 0) + 1 end

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- Persistence runs in a background thread: written shortly after the call returns.
local function persist(cid)
  SetTimeout(0, function()
    local c = characters[cid]
    saved[cid] = { job = c.job, grade = c.jobs[c.job] or 0, jobs = copy(c.jobs) }
  end)
end

local function online(cid)
  for src, p in pairs(players) do
    if p.PlayerData.citizenid == cid then return src, p end
  end
end

local function toPlayerJob(name, grade)
  local job = QbxJobs[name]
  local g = job.grades[grade]
  return {
    name = name, label = job.label, type = job.type,
    grade = { name = g.name, level = grade, isboss = g.isboss or false, payment = g.payment },
    onduty = job.defaultDuty or false,
  }
end

local function character(identifier)
  if type(identifier) == 'number' then
    local p = players[identifier]
    return p and characters[p.PlayerData.citizenid]
  end
  return characters[identifier]
end

function SetPlayerPrimaryJob(cid, jobName)
  local c = characters[cid]
  if not c then return false, { code = 'player_not_found', message = 'player not found' } end
  if jobName ~= 'unemployed' and not c.jobs[jobName] then
    return false, { code = 'player_not_in_job', message = 'player is not in the job' }
  end
  c.job = jobName
  persist(cid)
  local src, p = online(cid)
  if p then
    p.PlayerData.job = toPlayerJob(jobName, c.jobs[jobName] or 0)
    TriggerEvent('QBCore:Server:OnJobUpdate', src, p.PlayerData.job)
  end
  return true
end

-- The job goes into the character's list of jobs; the primary job changes only when it is this one.
-- So with one job allowed, a character whose primary job is unemployed (an empty list) can be
-- given police beside it, and HasGroup counts it.
function AddPlayerToJob(cid, jobName, grade)
  jobName = jobName:lower()
  grade = tonumber(grade) or 0
  if jobName == 'unemployed' then return false, { code = 'unemployed', message = 'cannot add unemployed' } end
  local job = QbxJobs[jobName]
  if not job then return false, { code = 'job_not_found', message = jobName .. ' does not exist' } end
  if not job.grades[grade] then
    return false, { code = 'job_missing_grade', message = jobName .. ' has no grade ' .. grade }
  end
  local c = characters[cid]
  if not c then return false, { code = 'player_not_found', message = 'player not found' } end
  if c.jobs[jobName] == grade then return true end
  if not c.jobs[jobName] then
    local held = 0
    for _ in pairs(c.jobs) do held = held + 1 end
    if held >= MAX_JOBS then return false, { code = 'max_jobs', message = 'too many jobs' } end
  end
  c.jobs[jobName] = grade
  persist(cid)
  local src = online(cid)
  if src then TriggerEvent('qbx_core:server:onGroupUpdate', src, jobName, grade) end
  if c.job == jobName then SetPlayerPrimaryJob(cid, jobName) end
  return true
end

-- A job not held is no error: true, with no write and no event.
function RemovePlayerFromJob(cid, jobName)
  if jobName == 'unemployed' then return false, { code = 'unemployed', message = 'cannot remove unemployed' } end
  local c = characters[cid]
  if not c then return false, { code = 'player_not_found', message = 'player not found' } end
  if not c.jobs[jobName] then return true end
  c.jobs[jobName] = nil
  local src, p = online(cid)
  if c.job == jobName then
    -- Only onGroupUpdate fires below, although the job became unemployed.
    c.job = 'unemployed'
    if p then p.PlayerData.job = toPlayerJob('unemployed', 0) end
  end
  persist(cid)
  if src then TriggerEvent('qbx_core:server:onGroupUpdate', src, jobName) end
  return true
end

-- Not a no-op with the same job and grade: the job is removed, added back, and duty reset.
function SetJob(identifier, jobName, grade)
  jobName = jobName:lower()
  grade = tonumber(grade) or 0
  local job = QbxJobs[jobName]
  if not job or not job.grades[grade] then
    print(('^1[qbx_core] job %s grade %s does not exist^7'):format(jobName, grade))
    return false
  end
  local c = character(identifier)
  if not c then return false, { code = 'player_not_found', message = 'player not found' } end
  if REPLACES and c.job ~= 'unemployed' then RemovePlayerFromJob(c.citizenid, c.job) end
  if jobName ~= 'unemployed' then
    local ok, err = AddPlayerToJob(c.citizenid, jobName, grade)
    if not ok then return false, err end
  end
  return SetPlayerPrimaryJob(c.citizenid, jobName)
end

function SetJobDuty(identifier, onDuty)
  local c = character(identifier)
  local src, p = online(c and c.citizenid)
  if not p then return end
  p.PlayerData.job.onduty = not not onDuty
  TriggerEvent('QBCore:Server:SetDuty', src, p.PlayerData.job.onduty)
end

local function newPlayer(src, c)
  local player = {
    PlayerData = {
      source = src, citizenid = c.citizenid, license = c.license,
      job = toPlayerJob(c.job, c.jobs[c.job] or 0), jobs = c.jobs,
    },
    Offline = false,
  }
  -- Methods bound to the player, as qbx builds them.
  player.Functions = {
    SetJob = function(job, grade) return SetJob(src, job, grade) end,
    Save = function() persist(c.citizenid) end,
  }
  return player
end

-- Login(source, citizenid[, newData]): loads (or creates) the character and fires PlayerLoaded.
exports('Login', function(src, citizenid, newData)
  local c = characters[citizenid]
  if not c then
    c = { citizenid = citizenid, license = GetPlayerIdentifierByType(src, 'license'), job = 'unemployed', jobs = {} }
    if newData and newData.job then
      c.job = newData.job.name
      c.jobs[newData.job.name] = newData.job.grade
    end
    characters[citizenid] = c
    persist(citizenid)
  end
  local p = newPlayer(src, c)
  players[src] = p
  -- ForceJobDefaultDutyAtLogin: duty starts at the job's defaultDuty (toPlayerJob).
  TriggerEvent('QBCore:Server:PlayerLoaded', p)
  return true
end)

function Logout(src)
  local p = players[src]
  if not p then return end
  persist(p.PlayerData.citizenid)
  TriggerEvent('QBCore:Server:OnPlayerUnload', src)
  players[src] = nil
  TriggerEvent('qbx_core:server:playerLoggedOut', src)
end
exports('Logout', Logout)
-- A drop fires no framework event: the player is just gone.
AddEventHandler('playerDropped', function() players[source] = nil end)

local broken = {} -- source → true: GetPlayer raises an error for that player (tests)
exports('GetPlayer', function(src)
  if broken[tonumber(src)] then error('stand-in failure for player ' .. tostring(src)) end
  return players[tonumber(src) or src]
end)
exports('StandInBreak', function(src) broken[src] = true end)
-- HasGroup with a name (shared/functions.lua 29-43, 76-90): the primary job, or any job of the
-- list, gangs left out here.
exports('HasGroup', function(src, name)
  local p = players[tonumber(src) or src]
  if not p then return false end
  return p.PlayerData.job.name == name or p.PlayerData.jobs[name] ~= nil
end)
exports('GetJobs', function() return QbxJobs end)
exports('GetJob', function(name) return QbxJobs[name] end)
-- Calls from other resources are counted here, not the ones SetJob makes itself.
for name, fn in pairs({
  SetJob = SetJob, SetJobDuty = SetJobDuty, AddPlayerToJob = AddPlayerToJob,
  RemovePlayerFromJob = RemovePlayerFromJob, SetPlayerPrimaryJob = SetPlayerPrimaryJob,
}) do
  exports(name, function(...)
    count(name)
    return fn(...)
  end)
end

-- For tests: what the database holds and how often each job export was called.
exports('StandInSaved', function(cid) return saved[cid] end)
exports('StandInCalls', function() return calls end)
