import { Handle } from './handle';

/** Whether another server reads the roster for this one, which follows its copy through the database. */
export interface SharedReads {
  /** True while following: this server's own audit reads and periodic refreshes hold meanwhile. */
  followingShared(): boolean;
}

/** Provided by the mirror feature; null (nothing shared) when it is not attached. */
export const sharedReadsHandle = new Handle<SharedReads>('whether another server reads the roster');
