-- A stand-in for ESX Legacy's es_extended (esx-framework/esx_core @ c026092): jobs loaded from the
-- database after start, xPlayer.setJob and getJob, RunStaticPlayerMethod, the `save` command and
-- the events, as its source has them, with an in-memory database. Not ESX.
fx_version 'cerulean'
game 'gta5'
server_scripts { 'server.lua' }
