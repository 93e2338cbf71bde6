-- A stand-in for QBCore's qb-core (qbcore-framework/qb-core @ 37d3b84): the core object, the
-- player's SetJob/SetJobDuty/Save and the events, as its source has them,
-- with an in-memory database. Not the framework.
fx_version 'cerulean'
game 'gta5'
server_scripts { 'server.lua' }
