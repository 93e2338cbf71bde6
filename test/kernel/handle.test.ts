import { describe, expect, it } from 'vitest';
import { Handle, HandleProvidedTwice, Handles } from '../../src/kernel/handle';

interface Hours {
  hours(src: string): number | null;
}

describe('a handle', () => {
  it('reads null before anything provides it, and when nothing ever does', () => {
    const handles = new Handles();
    const duty = new Handle<Hours>('duty hours');
    expect(handles.get(duty)).toBeNull();
    expect(handles.get(new Handle<Hours>('never provided'))).toBeNull();
  });

  it('gives what its feature provided to every later read, read then and not before', () => {
    const handles = new Handles();
    const duty = new Handle<Hours>('duty hours');
    // As a feature attached before the provider does: it asks when it needs the value.
    const askLater = () => handles.get(duty)?.hours('1') ?? null;
    expect(askLater()).toBeNull();
    const provided: Hours = { hours: (src) => (src === '1' ? 12.5 : null) };
    handles.provide(duty, provided);
    expect(handles.get(duty)).toBe(provided);
    expect(askLater()).toBe(12.5);
  });

  it('is provided once: a second provider is refused, and the first one still answers', () => {
    const handles = new Handles();
    const duty = new Handle<Hours>('duty hours');
    const first: Hours = { hours: () => 1 };
    handles.provide(duty, first);
    expect(() => handles.provide(duty, { hours: () => 2 })).toThrow(HandleProvidedTwice);
    expect(() => handles.provide(duty, { hours: () => 2 })).toThrow('duty hours is provided twice');
    expect(handles.get(duty)).toBe(first);
  });

  it('is told apart from another handle of the same name, and per resource', () => {
    const one = new Handle<Hours>('duty hours');
    const other = new Handle<Hours>('duty hours');
    const handles = new Handles();
    handles.provide(one, { hours: () => 1 });
    expect(handles.get(other)).toBeNull();
    // Another resource's handles (another context) know nothing of this one's.
    expect(new Handles().get(one)).toBeNull();
  });
});

describe('a handle’s type', () => {
  it('ties what is provided to what is read', () => {
    const handles = new Handles();
    const duty = new Handle<Hours>('duty hours');
    // @ts-expect-error: a duty hours handle gives hours, not text.
    handles.provide(duty, { hours: () => 'twelve' });
    const hours: Hours | null = handles.get(duty);
    expect(hours).not.toBeNull();
  });
});
