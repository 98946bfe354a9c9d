import { describe, expect, it } from 'vitest';
import { Listeners, TypedListeners } from '../../../main/base/listeners';

describe('Listeners', () => {
  it('calls callbacks in the order added, with the arguments, until removed', () => {
    const calls: string[] = [];
    const listeners = new Listeners<[string, number]>(() => undefined);
    const offA = listeners.add((s, n) => calls.push(`a ${s} ${n}`));
    listeners.add((s, n) => calls.push(`b ${s} ${n}`));
    listeners.emit('x', 1);
    offA();
    offA(); // twice: harmless
    listeners.emit('y', 2);
    expect(calls).toEqual(['a x 1', 'b x 1', 'b y 2']);
    expect(listeners.size).toBe(1);
  });

  it('registers a callback added twice once; either remover removes it', () => {
    let calls = 0;
    const listeners = new Listeners<[]>(() => undefined);
    const callback = () => (calls += 1);
    listeners.add(callback);
    const second = listeners.add(callback);
    listeners.emit();
    expect(calls).toBe(1);
    second();
    listeners.emit();
    expect(calls).toBe(1);
    expect(listeners.size).toBe(0);
  });

  it('passes exactly the arguments given, no padding', () => {
    const seen: number[] = [];
    const one = new Listeners<[string]>(() => undefined);
    one.add(function (this: unknown) {
      seen.push(arguments.length);
    });
    one.emit('x');
    const none = new Listeners<[]>(() => undefined);
    none.add(function (this: unknown) {
      seen.push(arguments.length);
    });
    none.emit();
    const typed = new TypedListeners<[string, number]>(() => undefined);
    typed.add('t', function (this: unknown) {
      seen.push(arguments.length);
    });
    typed.emit('t', 'a', 1);
    expect(seen).toEqual([1, 0, 2]);
  });

  it('reports a throwing callback and still calls the rest', () => {
    const errors: unknown[] = [];
    const calls: string[] = [];
    const listeners = new Listeners<[string]>((e) => errors.push(e));
    listeners.add(() => {
      throw new Error('boom');
    });
    listeners.add((s) => calls.push(s));
    listeners.emit('after');
    expect(calls).toEqual(['after']);
    expect(errors).toEqual([new Error('boom')]);
  });

  it('during an emit: a callback removed is skipped, one added waits for the next emit', () => {
    const calls: string[] = [];
    const listeners = new Listeners<[]>(() => undefined);
    let offB = () => {};
    listeners.add(() => {
      calls.push('a');
      offB();
      listeners.add(() => calls.push('c'));
    });
    offB = listeners.add(() => calls.push('b'));
    listeners.emit();
    expect(calls).toEqual(['a']);
    listeners.emit();
    expect(calls).toEqual(['a', 'a', 'c']);
  });

  it('lets a callback remove itself (a one-shot handler) without disturbing the others', () => {
    const calls: string[] = [];
    const listeners = new Listeners<[number]>(() => undefined);
    const off = listeners.add((n) => {
      off();
      calls.push(`once ${n}`);
    });
    listeners.add((n) => calls.push(`always ${n}`));
    listeners.emit(1);
    listeners.emit(2);
    expect(calls).toEqual(['once 1', 'always 1', 'always 2']);
  });

  it('clear removes every callback, also for an emit under way, and takes new ones afterwards', () => {
    const calls: string[] = [];
    const listeners = new Listeners<[]>(() => undefined);
    const offA = listeners.add(() => {
      calls.push('a');
      listeners.clear();
    });
    listeners.add(() => calls.push('b'));
    listeners.emit();
    expect(calls).toEqual(['a']);
    expect(listeners.size).toBe(0);
    offA(); // a remover after clear: harmless
    listeners.add(() => calls.push('c'));
    listeners.emit();
    expect(calls).toEqual(['a', 'c']);
  });
});

describe('TypedListeners', () => {
  it('calls only the callbacks of the emitted type and says whether there were any', () => {
    const calls: string[] = [];
    const listeners = new TypedListeners<[string, number]>(() => undefined);
    const off = listeners.add('move', (who, n) => calls.push(`move ${who} ${n}`));
    listeners.add('chat', (who, n) => calls.push(`chat ${who} ${n}`));
    expect(listeners.emit('move', 'ann', 3)).toBe(true);
    expect(listeners.emit('nobody-listens', 'ann', 4)).toBe(false);
    off();
    expect(listeners.emit('move', 'ann', 5)).toBe(false);
    expect(calls).toEqual(['move ann 3']);
  });
});
