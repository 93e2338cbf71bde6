-- A stand-in for ox_core (overextended/ox_core @ b45605e): groups read from the database after
-- start into GlobalState, GetPlayer, CallPlayer's getGroups/setGroup and the events, as
-- its source has them, in memory. Not the framework. dev/build.mjs builds
-- server.ts into server.js.
fx_version 'cerulean'
game 'gta5'
server_scripts { 'server.js' }
