local ESX = { Jobs = {}, Players = {} }
local Config = { DefaultJobDuty = true }
local jobsLoaded = false
local db = {}    -- identifier → { job, grade } as saved
local calls = {} -- name → times called
local function count(name) calls[name] = (calls[name] or 0) + 1 end

-- The jobs and job_grades tables (RefreshJobs): grades keyed by tostring(grade).
local JOB_ROWS = {
  { 'unemployed', 'Unemployed', { 'Unemployed' } },
  { 'police', 'LSPD', { 'recruit', 'officer', 'sergeant', 'lieutenant', 'boss' } },
  { 'ambulance', 'EMS', { 'ambulance', 'doctor', 'chief_doctor', 'boss' } },
  { 'taxi', 'Taxi', { 'recrue' } },
}
-- RefreshJobs reads the database after the resource started: the list is empty until then.
CreateThread(function()
  Wait(500)
  for _, row in ipairs(JOB_ROWS) do
    local job = { name = row[1], label = row[2], grades = {} }
    for i, name in ipairs(row[3]) do
      job.grades[tostring(i - 1)] = { job_name = row[1], grade = i - 1, name = name, label = name, salary = 50 }
    end
    ESX.Jobs[row[1]] = job
  end
  jobsLoaded = true
  TriggerEvent('esx:jobsRefreshed')
end)

-- GetJobs and DoesJobExist wait while the jobs are not loaded (a Promise for a JS caller then).
function ESX.GetJobs()
  while not jobsLoaded do Wait(0) end
  return ESX.Jobs
end
function ESX.DoesJobExist(job, grade)
  while not jobsLoaded do Wait(0) end
  return (ESX.Jobs[job] and ESX.Jobs[job].grades[tostring(grade)] ~= nil) or false
end
function ESX.GetPlayerFromId(src) return ESX.Players[tonumber(src)] end

local function jobObject(name, grade, onDuty)
  local job, g = ESX.Jobs[name], ESX.Jobs[name].grades[tostring(grade)]
  return {
    id = nil, name = name, label = job.label, grade = tonumber(grade), grade_name = g.name,
    grade_label = g.label, grade_salary = g.salary, onDuty = onDuty,
  }
end

local function createXPlayer(src, identifier)
  local row = db[identifier] or { job = 'unemployed', grade = 0 }
  local self = { source = src, identifier = identifier, spawned = false }
  -- An invalid saved job becomes unemployed 0 at load.
  if not ESX.DoesJobExist(row.job, row.grade) then row = { job = 'unemployed', grade = 0 } end
  self.job = jobObject(row.job, row.grade, row.job ~= 'unemployed' and Config.DefaultJobDuty)
  function self.getJob() return self.job end
  -- Nothing is returned, whether the job was taken or ignored; duty resets unless given.
  function self.setJob(newJob, grade, onDuty)
    count('setJob')
    grade = tostring(grade)
    local lastJob = self.job
    if not ESX.DoesJobExist(newJob, grade) then
      print(('[es_extended] [^3WARNING^7] Ignoring invalid ^5.setJob()^7 usage for ID: ^5%s^7, Job: ^5%s^7'):format(self.source, newJob))
      return
    end
    if onDuty == nil then onDuty = Config.DefaultJobDuty end
    if newJob == 'unemployed' then onDuty = false end
    self.job = jobObject(newJob, grade, onDuty)
    -- Fires even when nothing changed.
    TriggerEvent('esx:setJob', self.source, self.job, lastJob)
  end
  return self
end

-- Core.SavePlayer: writes only a player who has spawned (esx:onPlayerSpawn from the client).
local function savePlayer(xPlayer)
  if not xPlayer.spawned then return end
  db[xPlayer.identifier] = { job = xPlayer.job.name, grade = xPlayer.job.grade }
  TriggerEvent('esx:playerSaved', xPlayer.source, xPlayer)
end

RegisterNetEvent('esx:onPlayerSpawn', function()
  local xPlayer = ESX.Players[source]
  if xPlayer then xPlayer.spawned = true end
end)

-- `save <id>`: an admin command (restricted).
RegisterCommand('save', function(_, args)
  count('save')
  local xPlayer = ESX.Players[tonumber(args[1])]
  if xPlayer then savePlayer(xPlayer) end
end, true)

-- RunStaticPlayerMethod(src, method, ...): the player by number; a string finds no one.
exports('RunStaticPlayerMethod', function(src, method, ...)
  local xPlayer = ESX.Players[src]
  if not xPlayer then return end
  return xPlayer[method](...)
end)
exports('getSharedObject', function() return ESX end)

local function drop(src, reason)
  local xPlayer = ESX.Players[src]
  if not xPlayer then return end
  TriggerEvent('esx:playerDropped', src, reason)
  savePlayer(xPlayer)
  ESX.Players[src] = nil
end
AddEventHandler('playerDropped', function(reason) drop(source, reason) end)

-- For tests: esx_multicharacter's way in (char<N>:<license>) and out (esx:playerLogout).
exports('Load', function(src, charId)
  local identifier = ('char%d:%s'):format(charId, GetPlayerIdentifierByType(src, 'license'):sub(9))
  local xPlayer = createXPlayer(src, identifier)
  ESX.Players[src] = xPlayer
  TriggerEvent('esx:playerLoaded', src, xPlayer, db[identifier] == nil)
  return identifier
end)
exports('Logout', function(src) drop(src, 'esx_player_logout') end)
-- For tests: a job added to the database, then ESX.RefreshJobs (which fires esx:jobsRefreshed).
exports('StandInAddJob', function(name, label, grades)
  JOB_ROWS[#JOB_ROWS + 1] = { name, label, grades }
  local job = { name = name, label = label, grades = {} }
  for i, grade in ipairs(grades) do
    job.grades[tostring(i - 1)] = { job_name = name, grade = i - 1, name = grade, label = grade, salary = 50 }
  end
  ESX.Jobs[name] = job
  TriggerEvent('esx:jobsRefreshed')
end)
exports('StandInSaved', function(identifier) return db[identifier] end)
exports('StandInCalls', function() return calls end)
