-- A stand-in for ND_Core (ND-Framework/ND_Core @ 0e6caf7): groups loaded a second after start, the
-- character's setJob/addGroup/removeGroup/save and the events, as FRAMEWORKS.md reads them from its
-- source, with an in-memory database. Not the framework.
fx_version 'cerulean'
game 'gta5'
server_scripts { 'server.lua' }
