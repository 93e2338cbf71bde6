import { type Dispatcher, Pool } from 'undici';

const TERMINAL = new Set(['onComplete', 'onError', 'onResponseEnd', 'onResponseError']);

/** A keep-alive undici Pool that knows how many requests are in flight (for the virtual clock). */
export class CountingPool extends Pool {
  inFlight = 0;

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.inFlight++;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.inFlight--;
    };
    const counted = new Proxy(handler, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (typeof property === 'string' && TERMINAL.has(property)) {
          return (...args: unknown[]) => {
            try {
              return value.apply(target, args);
            } finally {
              finish();
            }
          };
        }
        return value.bind(target);
      },
    });
    return super.dispatch(options, counted);
  }
}
