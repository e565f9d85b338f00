import { describe, expect, it } from 'vitest';
import { ruleDocument, ruleFromDocument, ruleFromRow, type StoredRuleRow } from './discount-rules.ts';
import { OPEN_ENDED_DATE } from './policies.ts';
import { encodeLossless } from './text.ts';

const row: StoredRuleRow = {
  id: 41,
  descricao: encodeLossless('Semana do café ☕'),
  grupo: 3,
  subgrupo: null,
  representante: 7,
  id_pauta: null,
  percent: 12.5,
  vigencia_inicio: '2026-01-01',
  vigencia_fim: null,
  promocao: true,
};

describe('discount rule mapping', () => {
  it('reads a stored rule as the engine takes it: open end, decoded description, camelCase scope', () => {
    expect(ruleFromRow(row)).toEqual({
      id: 41,
      descricao: 'Semana do café ☕',
      grupo: 3,
      subgrupo: null,
      representante: 7,
      idPauta: null,
      percent: 12.5,
      vigenciaInicio: '2026-01-01',
      vigenciaFim: OPEN_ENDED_DATE,
      promocao: true,
    });
    expect(ruleFromRow({ ...row, vigencia_fim: '2026-01-31' }).vigenciaFim).toBe('2026-01-31');
  });

  it('gives the device the same engine rule the server uses, through the replicated document', () => {
    const doc = ruleDocument(row);
    expect(doc).toMatchObject({ id: '41', _deleted: false });
    expect(ruleFromDocument(doc)).toEqual(ruleFromRow(row));
  });

  it('reads a scope the device store lacks as no scope', () => {
    const { grupo: _g, ...partial } = ruleDocument(row);
    expect(ruleFromDocument(partial as unknown as Parameters<typeof ruleFromDocument>[0]).grupo).toBeNull();
  });
});
