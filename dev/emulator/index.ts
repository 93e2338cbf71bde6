export type { Decision } from './connection';
export { Connection } from './connection';
export type { ClientEvent, ConnectOptions, FxServerOptions } from './fx-server';
export { FRAME_MS, FxServer } from './fx-server';
export type { HandlerOrder } from './handler-order';
export type { LogEntry } from './log-sink';
export { LuaResource } from './lua-resource';
export { ScriptResource } from './script-resource';
