-- The naive roster gate the benchmark compares against. Never shipped: it lives in dev/bench only.
fx_version 'cerulean'
game 'common'

name 'naive-gate'
description 'A roster gate built the way such gates usually are (benchmark baseline).'
version '0.0.0'

server_script 'server.js'
