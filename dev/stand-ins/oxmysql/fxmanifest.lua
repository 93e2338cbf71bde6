-- A stand-in for oxmysql (overextended/oxmysql 2.14.1): its exports, argument rules, answers and
-- error reports, backed by mysql2 against a real server. Not oxmysql. dev/stand-ins/oxmysql.ts
-- builds server.ts into server.js and starts it; README.md in dev/emulator says what it follows.
fx_version 'cerulean'
game 'common'
node_version '22'
server_script 'server.js'
