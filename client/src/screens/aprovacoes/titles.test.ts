import { describe, expect, it } from 'vitest';
import { dueText } from './titles.tsx';

describe("the review's open titles", () => {
  it('says how long a title is overdue, in pt-BR, or when it falls due', () => {
    expect(dueText({ vencimento: '2026-11-01', diasAtraso: 27 })).toBe('vencido há 27 dias (01/11/2026)');
    expect(dueText({ vencimento: '2026-11-27', diasAtraso: 1 })).toBe('vencido há 1 dia (27/11/2026)');
    expect(dueText({ vencimento: '2026-12-20', diasAtraso: 0 })).toBe('vence em 20/12/2026');
  });
});
