-- The parts of FXServer's data/shared/citizen/scripting/lua/scheduler.lua (and deferred.lua) a
-- server resource meets, written for the emulator. Values cross only as msgpack bytes
-- (`msgpack` is lua-pack.ts / lua-unpack.ts); the host functions come in `host` and are not
-- left in _G. This chunk is named "@citizen:/scripting/lua/scheduler.lua" like FXServer's, so
-- errors raised here carry that name (the line numbers are this file's).
local host = ...

local msgpack_pack, msgpack_unpack, msgpack_pack_args = host.pack, host.unpack, host.pack_args
local table_pack, table_unpack = table.pack, table.unpack

msgpack = { pack = msgpack_pack, unpack = msgpack_unpack, pack_args = msgpack_pack_args }

Citizen = Citizen or {}
Citizen.Trace = function(text) host.trace(tostring(text)) end
Citizen.CreateThreadNow = function(fn, name) return host.thread_now(fn, name or 'thread') end

-- Threads made with CreateThread run after the chunk that made them (lua.run awaits them).
Citizen.CreateThread = function(fn) host.create_thread(fn) end
CreateThread = Citizen.CreateThread

-- Natives (natives_server.lua, called by name as InvokeNative does): each packs its arguments and
-- unpacks its one value; the same function a JS resource of this server calls (natives.ts).
-- lua-natives.ts lists the ones the emulator gives.
for name in host.native_list:gmatch('[^,]+') do
  _G[name] = function(...)
    return table_unpack(msgpack_unpack(host.native(name, msgpack_pack_args(...))), 1, 1)
  end
end

-- deferred.lua's states: 0 pending, 3 resolved, 4 rejected. A minimal promise: no chaining.
promise = {}
promise.__index = promise
function promise.new() return setmetatable({ state = 0, value = nil, waiting = {} }, promise) end
local function settle(p, state, value)
  if p.state ~= 0 then return end
  p.state, p.value = state, value
  local waiting = p.waiting
  p.waiting = {}
  for _, run in ipairs(waiting) do run(p) end
end
function promise:resolve(value) settle(self, 3, value) end
function promise:reject(value) settle(self, 4, value) end
function promise:next(on_resolved, on_rejected)
  local function run(p)
    if p.state == 3 then
      if on_resolved then on_resolved(p.value) end
    elseif on_rejected then
      on_rejected(p.value)
    end
  end
  if self.state == 0 then self.waiting[#self.waiting + 1] = run else run(self) end
end

-- scheduler.lua Citizen.Await: a rejection is raised in the awaiting coroutine with
-- error(value, 2), so a string gets the caller's position (in this file) in front.
function Citizen.Await(p)
  if p.state == 0 then
    local wait, wake = host.new_wait()
    p:next(wake, wake)
    wait:await()
  end
  if p.state == 2 or p.state == 4 then
    error(p.value, 2)
  end
  return p.value
end

-- Function references: ext 10 unpacks to a table with this metatable (host.setup hands it to
-- lua-unpack.ts); calling it sends pack_args(...) to the owner and unpacks the answer.
local funcref_mt = {
  __ext = 10,
  __index = function() error('Cannot index a funcref', 2) end,
  __newindex = function() error('Cannot set indexes on a funcref', 2) end,
  __gc = function(t) host.release(rawget(t, '__cfx_functionReference')) end,
}
funcref_mt.__call = function(t, ...)
  local ref = rawget(t, '__cfx_functionReference')
  local rv, failure = host.invoke(ref, msgpack_pack_args(...))
  if failure then error(failure, 0) end
  local rvs = msgpack_unpack(rv)
  -- A JS async function answers { __cfx_async_retval = fn }: hand it a callback and await it.
  if rvs and type(rvs[1]) == 'table' and rawget(rvs[1], '__cfx_async_retval') and coroutine.running() then
    local p = promise.new()
    rvs[1].__cfx_async_retval(function(r, e)
      if r then
        p:resolve(r)
      elseif e then
        p:reject(e)
      end
    end)
    return table_unpack(Citizen.Await(p))
  end
  if not rvs then
    error()
  end
  return table_unpack(rvs)
end

local function script_error(err)
  return ('^1SCRIPT ERROR: %s^7\n%s'):format(tostring(err or ''), debug.traceback(nil, 2))
end

-- SetCallRefRoutine: another resource calls one of ours. The function runs in a coroutine at
-- once; its values go back as one packed table ({ f(...) }, so a nil among them makes it a map),
-- nil after an error, or { { __cfx_async_retval = … } } when it had to wait.
local function call_ref(fn, args)
  local err
  local retvals = false
  local cb = {}
  local waited = Citizen.CreateThreadNow(function()
    local ok, result = xpcall(function() retvals = { fn(table_unpack(msgpack_unpack(args))) } end, script_error)
    if not ok then err = result or '' end
    if cb.cb then
      cb.cb(retvals, err)
    elseif err then
      Citizen.Trace(err)
    end
  end, 'ref call')
  if not waited then
    if err then return msgpack_pack(nil) end
    return msgpack_pack(retvals)
  end
  return msgpack_pack({ { __cfx_async_retval = function(rvcb) cb.cb = rvcb end } })
end

local event_handlers = {}
local event_key = 10

-- SetEventRoutine: `source` is the raw source string, or the player id for `net:N` (net-safe
-- events only) and `internal-net:N`, for the synchronous part of the handlers.
local function on_event(name, payload, event_source)
  local last_source = source
  source = event_source
  local entry = event_handlers[name]
  local data = msgpack_unpack(payload)
  if entry and entry.handlers then
    if event_source:sub(1, 3) == 'net' then
      if not entry.safeForNet then
        Citizen.Trace('event ' .. name .. ' was not safe for net')
        source = last_source
        return
      end
      source = tonumber(event_source:sub(5))
    elseif event_source:sub(1, 12) == 'internal-net' then
      source = tonumber(event_source:sub(14))
    end
    if not data then data = {} end
    if type(data) == 'table' then
      local keys = {}
      for key in pairs(entry.handlers) do keys[#keys + 1] = key end
      table.sort(keys)
      for _, key in ipairs(keys) do
        local handler = entry.handlers[key]
        if handler then
          Citizen.CreateThreadNow(function() handler(table_unpack(data)) end, 'event ' .. name)
        end
      end
    end
  end
  source = last_source
end

function AddEventHandler(name, fn)
  local entry = event_handlers[name]
  if not entry then
    entry = {}
    event_handlers[name] = entry
  end
  entry.handlers = entry.handlers or {}
  event_key = event_key + 1
  entry.handlers[event_key] = fn
  host.register_event(name)
  return { key = event_key, name = name }
end

function RemoveEventHandler(data)
  if not data or not data.key or not data.name then
    error('Invalid event data passed to RemoveEventHandler()', 2)
  end
  event_handlers[data.name].handlers[data.key] = nil
end

function RegisterNetEvent(name, cb)
  local entry = event_handlers[name]
  if not entry then
    entry = {}
    event_handlers[name] = entry
  end
  entry.safeForNet = true
  if cb then return AddEventHandler(name, cb) end
end
RegisterServerEvent = RegisterNetEvent

function TriggerEvent(name, ...)
  host.trigger(name, msgpack_pack_args(...))
end

-- FXServer's alias of GetPlayerEndpoint.
GetPlayerEP = GetPlayerEndpoint

-- scheduler.lua's helpers over those natives.
function GetPlayerIdentifiers(player)
  local t = {}
  for i = 0, GetNumPlayerIdentifiers(player) - 1 do t[#t + 1] = GetPlayerIdentifier(player, i) end
  return t
end

function GetPlayers()
  local t = {}
  for i = 0, GetNumPlayerIndices() - 1 do t[#t + 1] = GetPlayerFromIndex(i) end
  return t
end

-- Citizen.Wait (scheduler.lua aliases it as Wait): the coroutine sleeps until the resource's timer
-- wakes it (0: the next frame). Outside a coroutine it is an error, as in scheduler.lua. `source`
-- is not the coroutine's: the event routine put the previous value back when the handler first
-- yielded, so after a Wait it is gone.
function Citizen.Wait(ms)
  if not coroutine.isyieldable() then error('Current execution context is not in the scheduler', 2) end
  host.sleep(ms or 0):await()
end
Wait = Citizen.Wait

function Citizen.SetTimeout(ms, fn)
  Citizen.CreateThread(function()
    Citizen.Wait(ms)
    fn()
  end)
end
SetTimeout = Citizen.SetTimeout

-- exports: `exports.res:fn(...)` finds the export through its event, keeps the funcref per
-- resource (forgotten on onServerResourceStop), and wraps any error in the export message.
local function export_event(resource, name)
  if resource == 'txAdmin' then resource = 'monitor' end
  return ('__cfx_export_%s_%s'):format(resource, name)
end

local export_cache = {}
local watching_stops = false
local function watch_stops()
  if watching_stops then return end
  watching_stops = true
  AddEventHandler('onServerResourceStop', function(resource) export_cache[resource] = {} end)
end

local function indent(text, prefix)
  text = tostring(text)
  if #text == 0 then return text end
  return prefix .. text:gsub('\n(.)', '\n' .. prefix .. '%1')
end

local function export_result(resource, name, ok, ...)
  if not ok then
    local result = tostring((...))
    if #result > 2048 then
      result = result:sub(1, 1024) .. '\n... [large output partially truncated] ...\n' .. result:sub(-1024)
    end
    error(('\n^5 An error occurred while calling export `%s` in resource `%s`:\n%s\n^5 ---'):format(
      name, resource, indent(result, '  ')), 2)
  end
  return ...
end

exports = setmetatable({}, {
  __index = function(_, resource)
    return setmetatable({}, {
      __index = function(_, name)
        watch_stops()
        if not name or type(name) ~= 'string' then error('Invalid export name: ' .. tostring(name), 2) end
        export_cache[resource] = export_cache[resource] or {}
        if not export_cache[resource][name] then
          TriggerEvent(export_event(resource, name), function(fn) export_cache[resource][name] = fn end)
          if not export_cache[resource][name] then
            error('No such export ' .. name .. ' in resource ' .. resource, 2)
          end
        end
        return function(self, ...)
          return export_result(resource, name, pcall(export_cache[resource][name], ...))
        end
      end,
      __newindex = function() error('cannot set values on an export resource', 2) end,
    })
  end,
  __newindex = function() error('cannot set values on exports', 2) end,
  __call = function(_, name, fn)
    AddEventHandler(export_event(GetCurrentResourceName(), name), function(setCB) setCB(fn) end)
  end,
})

host.setup(funcref_mt, on_event, call_ref)
