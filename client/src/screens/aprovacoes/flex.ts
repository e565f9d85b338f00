// What the approver reads of the representative's flex balance in an order: what each line
// took from it beyond its ceiling or earns for it above the list, as the server stored them
// when the order arrived (docs/credit-and-flex.md), and the order's totals.
import { type Order, sumMoney } from '@campo/shared';
import { brl, pct } from '../../kit/format.ts';

type Line = Order['itens'][number];

/** "Usa R$ 4,00: 9% passa o teto de 7% (regra …)", "Gera R$ 4,00", or null without flex. */
export function lineFlexNote(l: Line): string | null {
  if (l.flexUsado) {
    const ceiling = l.tetoPercent === null ? '' : `: ${pct(l.descontoPercent)} passa o teto de ${pct(l.tetoPercent)}`;
    const source = l.regra
      ? ` (regra "${l.regra.descricao}")`
      : l.tetoPercent === null
        ? ''
        : ' (alçada do representante)';
    return `Usa ${brl(l.flexUsado)}${ceiling}${source}`;
  }
  if (l.flexGerado) return `Gera ${brl(l.flexGerado)}`;
  return null;
}

/** The order's flex: null when no line used or earned any (flex off, or an order from before it). */
export function orderFlexTotals(order: Pick<Order, 'itens'>): { used: number; earned: number } | null {
  const used = sumMoney(order.itens.map((l) => l.flexUsado ?? 0));
  const earned = sumMoney(order.itens.map((l) => l.flexGerado ?? 0));
  return used === 0 && earned === 0 ? null : { used, earned };
}
