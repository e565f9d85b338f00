import { describe, expect, it } from 'vitest';
import { OrderEvents } from './clients.ts';

describe('OrderEvents', () => {
  it('grows past its first block and lists events by date and time, ties by insertion', () => {
    const events = new OrderEvents();
    const first = 20_000;
    for (let i = 0; i < 3000; i++) events.push(i, first + ((i * 7) % 50), (i * 13) % 86_400, i, false);
    events.push(3000, first, 0, 0, true);
    events.push(3001, first, 0, 0, false);
    const order = [...events.chronological(first)];
    expect(order).toHaveLength(3002);
    expect(new Set(order).size).toBe(3002);
    const key = (e: number) => (events.day[e] as number) * 86_400 + (events.seconds[e] as number);
    for (let i = 1; i < order.length; i++) {
      expect(key(order[i] as number)).toBeGreaterThanOrEqual(key(order[i - 1] as number));
    }
    expect(order.indexOf(3000)).toBeLessThan(order.indexOf(3001));
    expect(events.cancelled[3000]).toBe(1);
  });
});
