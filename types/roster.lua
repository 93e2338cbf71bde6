---@meta
-- Annotations for the `roster` resource's exports, for the Lua language server (LuaLS / sumneko).
-- Not a script: never load it in a resource. Add this file (or the `types` folder) to your
-- `Lua.workspace.library`, then `exports.roster:` completes with the methods below.
--
-- Every export is a colon call:  exports.roster:hasMinRank(source, 'LSPD', 'Sergeant')
-- Departments match by id, name or short name; ranks and courses by id or name/title; all
-- case-insensitively. No export throws: bad arguments give false, nil or {}.
-- Async exports (lookupLicense, refreshPlayer, setRank, lookupPriority, assignCourse,
-- getExpiringCertificates, getTrainingProgress) return their value directly when called inside a
-- thread (CreateThread, an event handler, a command handler); they never error. Every other export
-- answers at once, from memory, inside a thread or not.
--
-- Server events (AddEventHandler), arguments in order:
--   'roster:ready'           (info: RosterReadyInfo)                   the API key was verified at start
--   'roster:playerLoaded'    (src: integer, member: RosterMember?)     a joined player has roster data
--   'roster:playerUpdated'   (src: integer, member: RosterMember?, previous: RosterMember?)
--                                                                      a refresh changed status, departments or ranks
--   'roster:rankChanged'     (target: integer, change: RosterRankChange) a rank change from the game was confirmed
--   'roster:trainingUpdated' (src: integer, training: RosterTraining?) the player's training record changed
--   'roster:jobChanged'      (src: integer, change: RosterJobChange)   the framework took a job change job sync made
--
-- State bags (replicated):
--   Player(src).state.roster    RosterPublicMember? (the member without its license)
--   Player(src).state.training  RosterTraining? (the getTraining value)

---A rank inside a department.
---@class RosterRank
---@field id string
---@field name string
---@field position number Seniority; which end is senior follows the server's `ranks.order`.

---One of a member's department assignments.
---@class RosterDepartment
---@field id string
---@field name string
---@field shortName string?
---@field primary boolean True for the member's primary department.
---@field callsign string?
---@field rank RosterRank?

---A member as the state bag holds it: no license (state bags reach clients).
---@class RosterPublicMember
---@field id string
---@field name string Display name.
---@field status string Roster status, e.g. `ACTIVE`.
---@field departments RosterDepartment[]

---A member of the community's roster, as the exports and events hand it out.
---@class RosterMember: RosterPublicMember
---@field license string `license:<hex>`

---Second argument of the `roster:rankChanged` event.
---@class RosterRankChange
---@field department RosterDepartment
---@field from RosterRank?
---@field to RosterRank
---@field actor integer server id of the acting player; 0 for the console or a resource

---@class RosterJob
---@field job string framework job or group
---@field grade integer the framework's own grade number

---@class RosterJobChange
---@field job string? nil when the group was removed
---@field grade integer?
---@field previous RosterJob?

---Argument of the `roster:ready` event.
---@class RosterReadyInfo
---@field community string The community's name.
---@field scopes string[] The roster API key's scopes.

---One completed course.
---@class RosterCourseCompletion
---@field courseId string
---@field title string
---@field completedAt string ISO 8601 date-time with UTC offset.

---A player's training record; unlisted courses never appear in it.
---@class RosterTraining
---@field linked boolean Whether the player's Discord account is linked to the learning app.
---@field completions RosterCourseCompletion[]

---Result of `assignCourse`: `enrolled` true with `created` (false when already enrolled), or
---`enrolled` false with a `reason`.
---@class RosterAssignCourseResult
---@field enrolled boolean
---@field created boolean? Present when `enrolled` is true.
---@field reason string? Present when `enrolled` is false.

---A certificate of a linked player that expires soon. Fields may grow.
---@class RosterExpiringCertificate
---@field src integer The player's server id.
---@field discordId string
---@field courseId string?
---@field title string
---@field expiresAt string ISO 8601 date-time.

---@class RosterTrainingBadge
---@field id string?
---@field name string

---Experience, level and badges of a linked player.
---@class RosterTrainingProgress
---@field experience number
---@field level number
---@field badges RosterTrainingBadge[]

---The exports of `roster`; call them with a colon: `exports.roster:getMember(source)`.
---@class RosterExports
local RosterExports = {}

---Queue priority: the power of the first `queue.priority` rule the player matches, from what is known now; 0 for none.
---@param srcOrLicense integer|string server id (a connecting player's temporary id too) or `license:…`
---@return integer
function RosterExports:getPriority(srcOrLicense) end

---The same once the roster has answered, within `gate.timeoutSeconds`. Async: call inside a thread
---(a Qbox sub-queue predicate runs in one). Example: `exports.roster:lookupPriority(source) >= 50`
---@param srcOrLicense integer|string server id or `license:…`
---@return integer
function RosterExports:lookupPriority(srcOrLicense) end

---Hours on duty in the last `days` (default 7, at most 30); nil when unknown or `days` is not a positive number.
---@param src integer|string server id
---@param days? number
---@return number?
function RosterExports:getDutyHours(src, days) end

---The player's member record, or nil (not on the roster, not loaded yet, bad `src`).
---@param src integer|string server id
---@return RosterMember?
function RosterExports:getMember(src) end

---True if the player is a member whose status is in `gate.requireStatus`.
---@param src integer|string server id
---@return boolean
function RosterExports:isOnRoster(src) end

---The player's departments; an empty table when none or unknown.
---@param src integer|string server id
---@return RosterDepartment[]
function RosterExports:getDepartments(src) end

---Whether the player is in the department.
---@param src integer|string server id
---@param department string id, name or short name
---@return boolean
function RosterExports:isInDepartment(src, department) end

---The player's rank in `department`, or in their primary department when omitted; nil when none.
---@param src integer|string server id
---@param department? string id, name or short name
---@return RosterRank?
function RosterExports:getRank(src, department) end

---Whether the player holds exactly this rank in the department.
---@param src integer|string server id
---@param department string id, name or short name
---@param rank string id or name
---@return boolean
function RosterExports:hasRank(src, department, rank) end

---Whether the player holds this rank or a more senior one in the department.
---Example: `exports.roster:hasMinRank(source, 'LSPD', 'Sergeant')`
---@param src integer|string server id
---@param department string id, name or short name
---@param rank string id or name
---@return boolean
function RosterExports:hasMinRank(src, department, rank) end

---The framework job and grade the roster gives the player's character (job sync); nil when none.
---@param src integer|string server id
---@return RosterJob?
function RosterExports:getJob(src) end

---The member with this license, cache first; nil when not on the roster. Async: call inside a thread.
---@param license string `license:…` identifier
---@return RosterMember?
function RosterExports:lookupLicense(license) end

---Fetches the player's record fresh (`roster:playerUpdated` fires if it changed). Async: call inside a thread.
---@param src integer|string server id
---@return RosterMember?
function RosterExports:refreshPlayer(src) end

---Sets a rank (id or name) in a department for an online player. `actor` is required: a player's
---server id applies the rank rules on the roster's current data; 0 trusts the calling resource.
---A nil actor is refused (never the console): copy `source` before any Wait(), it is nil after.
---Async: call inside a thread; never errors.
---@param target integer|string server id
---@param department string id, name or short name
---@param rank string id or name
---@param actor integer|string server id of the acting player, or 0 for this resource
---@return { ok: boolean, member: RosterMember?, reason: string? }
function RosterExports:setRank(target, department, rank, actor) end

---The player's training record, or nil when unknown or training is off.
---@param src integer|string server id
---@return RosterTraining?
function RosterExports:getTraining(src) end

---Whether the player completed the course.
---@param src integer|string server id
---@param course string course id or title, case-insensitive
---@return boolean
function RosterExports:hasCompletedCourse(src, course) end

---Whether the player is in the department and completed every course it requires
---(`training.departmentCourses`).
---@param src integer|string server id
---@param department string id, name or short name
---@return boolean
function RosterExports:isQualified(src, department) end

---Enrolls the player in a course; never errors. Async: call inside a thread.
---@param src integer|string server id
---@param courseId string
---@return RosterAssignCourseResult
function RosterExports:assignCourse(src, courseId) end

---Certificates of linked players expiring within `days` (default 30). Async: call inside a thread.
---@param days? integer
---@return RosterExpiringCertificate[]
function RosterExports:getExpiringCertificates(days) end

---Experience, level and badges of a linked player, or nil. Async: call inside a thread.
---@param src integer|string server id
---@return RosterTrainingProgress?
function RosterExports:getTrainingProgress(src) end

-- How `exports` gets its `roster` field. The Cfx Lua annotations (cfxlua) declare the global
-- `exports` as class `CitizenExports`; LuaLS merges class declarations, so this adds a field to it.
-- Without those annotations, the global declared below is the whole of `exports` LuaLS knows.

---@class CitizenExports
---@field roster RosterExports

---@type CitizenExports
exports = {}
