-- A stand-in for Qbox's qbx_core (Qbox-project/qbx_core @ 959b77b): its job API and events, as
-- its source has them, with an in-memory database. Not the framework.
fx_version 'cerulean'
game 'gta5'
provide 'qb-core'
server_scripts { 'jobs.lua', 'server.lua' }
