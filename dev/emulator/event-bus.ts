import { arrange, type HandlerOrder } from './handler-order';

/** A started resource as the event system sees it. */
export interface EventTarget {
  readonly name: string;
  dispatch(event: string, payload: Uint8Array, source: string): void;
}

interface Frame {
  readonly caller: string | null;
  readonly callee: string;
}

/**
 * Routes events to every started resource, in the order the server was asked to use (start order
 * unless told otherwise, see handler-order.ts), and keeps the runtime stack that
 * `GetInvokingResource` reads (ResourceScriptFunctions.cpp: GET_INVOKING_RESOURCE returns the
 * runtime below the current one, or null when the server itself invoked).
 */
export class EventBus {
  private readonly targets: EventTarget[] = [];
  private readonly cancels: { canceled: boolean }[] = [];
  private readonly frames: Frame[] = [];
  /** ResourceEventComponent.cpp `m_eventResources`: per event, resources newest first, never emptied. */
  private readonly registered = new Map<string, string[]>();

  constructor(
    private readonly report: (resource: string, error: unknown) => void,
    readonly order: HandlerOrder = 'start',
  ) {}

  /** A resource added a handler for `event` (main.js calls RegisterResourceAsEventHandler). */
  handles(resource: string, event: string): void {
    let names = this.registered.get(event);
    if (!names) {
      names = [];
      this.registered.set(event, names);
    }
    if (!names.includes(resource)) names.unshift(resource);
  }

  attach(target: EventTarget): void {
    this.targets.push(target);
  }

  detach(name: string): void {
    const i = this.targets.findIndex((t) => t.name === name);
    if (i >= 0) this.targets.splice(i, 1);
  }

  /** Synchronous, like TriggerEvent: returns false when a handler called CancelEvent. */
  trigger(event: string, payload: Uint8Array, source: string, caller: string | null): boolean {
    const state = { canceled: false };
    this.cancels.push(state);
    try {
      for (const target of arrange(this.targets, this.order, event, this.registered.get(event))) {
        try {
          this.enter(caller, target.name, () => target.dispatch(event, payload, source));
        } catch (error) {
          this.report(target.name, error);
        }
      }
    } finally {
      this.cancels.pop();
    }
    return !state.canceled;
  }

  /** Runs `fn` as `callee` called from `caller`. */
  enter<T>(caller: string | null, callee: string, fn: () => T): T {
    this.frames.push({ caller, callee });
    try {
      return fn();
    } finally {
      this.frames.pop();
    }
  }

  invokingResource(current: string): string | null {
    const top = this.frames.at(-1);
    return top && top.callee === current ? top.caller : null;
  }

  cancel(): void {
    const top = this.cancels.at(-1);
    if (top) top.canceled = true;
  }

  wasCanceled(): boolean {
    return this.cancels.at(-1)?.canceled ?? false;
  }
}
