fx_version 'cerulean'
game 'common'

name 'roster'
description 'Gates joins on the community roster service; answers department and rank questions for other resources.'
version '0.1.0'
license 'MIT'

-- Node 22 arrived in server build 12913; older builds cannot run this bundle.
dependency '/server:12913'
node_version '22'

server_script 'dist/server.js'
