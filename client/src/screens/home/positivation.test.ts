import { describe, expect, it } from 'vitest';
import type { OrderDoc } from '../../db/schemas.ts';
import { localPositivation, saoPauloDay } from './positivation.ts';

// 2026-03-10 14:00 in São Paulo (UTC−3).
const NOW = new Date('2026-03-10T17:00:00Z');

function queued(idCliente: number, queuedAt: string): OrderDoc {
  return {
    id: `q-${idCliente}-${queuedAt}`,
    status: 'queued',
    draft: { idCliente, itens: [] },
    order: null,
    reasons: [],
    queuedAt,
    updatedAt: queuedAt,
  };
}

function placed(idCliente: number, criadoEm: string, status: OrderDoc['status']): OrderDoc {
  return {
    id: `p-${idCliente}-${criadoEm}`,
    status,
    draft: null,
    order: { idCliente, criadoEm } as unknown as OrderDoc['order'],
    reasons: [],
    queuedAt: null,
    updatedAt: criadoEm,
  };
}

describe('localPositivation', () => {
  it('counts distinct clients with an order today, queued or on the server', () => {
    const orders = [
      queued(1, '2026-03-10T12:00:00Z'),
      queued(1, '2026-03-10T13:00:00Z'),
      placed(2, '2026-03-10T15:00:00Z', 'pending_approval'),
      placed(3, '2026-03-10T16:00:00Z', 'approved'),
    ];
    expect(localPositivation(orders, NOW)).toBe(3);
  });

  it('leaves out rejected and refused orders and other days (São Paulo days)', () => {
    const orders = [
      placed(1, '2026-03-10T15:00:00Z', 'rejected'),
      { ...queued(2, '2026-03-10T15:00:00Z'), status: 'refused' as const },
      // 23:30 of the 9th in São Paulo, although the 10th in UTC.
      queued(3, '2026-03-10T02:30:00Z'),
    ];
    expect(localPositivation(orders, NOW)).toBe(0);
    expect(saoPauloDay('2026-03-10T02:30:00Z')).toBe('2026-03-09');
  });
});
