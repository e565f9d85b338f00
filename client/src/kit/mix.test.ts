import { describe, expect, it } from 'vitest';
import { daysBetween, MIX_STALE_MIN_DAYS, mixItems, notBoughtThisMonth, sinceText } from './mix.ts';

describe("the client's mix on the phone", () => {
  const today = '2026-11-28';

  it('reads the document entries in their order, with the days since each last purchase', () => {
    const items = mixItems(
      {
        mix: [
          [7, 6, 12, 10.5, '2026-10-14'],
          [8, 1, 2, 3, '2026-11-28'],
        ],
      },
      today,
    );
    expect(items.map((i) => [i.idProduto, i.pedidos, i.quantidadeUsual, i.ultimoPreco, i.dias])).toEqual([
      [7, 6, 12, 10.5, 45],
      [8, 1, 2, 3, 0],
    ]);
  });

  it('has nothing for a document without a mix, and skips entries of another shape', () => {
    expect(mixItems({ mix: null }, today)).toEqual([]);
    expect(mixItems({}, today)).toEqual([]);
    expect(
      mixItems(
        {
          mix: [
            [7, 'x', 1, 1, '2026-11-01'],
            [9, 2, 1, 1],
          ],
        },
        today,
      ),
    ).toEqual([]);
  });

  it('flags what the client used to buy and has not for a while, by its own rhythm', () => {
    const at = (pedidos: number, ultimaCompra: string) =>
      mixItems({ mix: [[1, pedidos, 1, 1, ultimaCompra]] }, today)[0]?.parado;
    // Every month (6 orders in 6 months), 45 days ago: stands out.
    expect(at(6, '2026-10-14')).toBe(true);
    // Every two months (3 orders), 45 days ago: still within its rhythm.
    expect(at(3, '2026-10-14')).toBe(false);
    // Every week (26 orders), but less than the minimum: not yet.
    expect(at(26, '2026-11-10')).toBe(false);
    expect(daysBetween('2026-11-10', today)).toBeLessThan(MIX_STALE_MIN_DAYS);
    expect(at(26, '2026-10-29')).toBe(true);
    // Bought once: the client never "used to" buy it.
    expect(at(1, '2026-06-01')).toBe(false);
  });

  it('lists the products not bought this month (positivação de produto)', () => {
    const items = mixItems(
      {
        mix: [
          [1, 3, 1, 1, '2026-11-01'],
          [2, 3, 1, 1, '2026-10-31'],
          [3, 3, 1, 1, '2026-06-10'],
        ],
      },
      today,
    );
    expect(notBoughtThisMonth(items, today).map((i) => i.idProduto)).toEqual([2, 3]);
    expect(notBoughtThisMonth(items, '2026-12-01').map((i) => i.idProduto)).toEqual([1, 2, 3]);
  });

  it('says how long in pt-BR', () => {
    expect(sinceText(45)).toBe('há 45 dias sem comprar');
    expect(sinceText(1)).toBe('há 1 dia sem comprar');
    expect(sinceText(0)).toBe('comprou hoje');
  });
});
