-- A stand-in for ND_Core (ND-Framework/ND_Core @ 0e6caf7): groups loaded a second after start, the
-- character's setJob/addGroup/removeGroup/save and the events, as its source has them,
-- with an in-memory database. Not the framework. Groups beside the job, as ND_Core keeps
-- them: setJob's keepGroup keeps the old job as a group (server/player.lua 475-490), addGroup
-- without isJob adds one beside the job (405-446; the admin command /setgroup, server/commands.lua
-- 107-145), and a character holds every group it was given, each with the `group.<name>` principal
-- (left out here: the stand-in keeps no ACE).
fx_version 'cerulean'
game 'gta5'
server_scripts { 'server.lua' }
