// A discount rule as the engine takes it (DiscountRule), from where each side keeps it: the
// server's row of app.regras_desconto and the document the devices replicate. One mapping for
// every caller, so the cart's preview, the catalog, the ceiling preview and the order check
// cannot read a rule differently (an open end, a null scope, an escaped description).
import type { DiscountRule } from './discount-engine.ts';
import { OPEN_ENDED_DATE } from './policies.ts';
import type { SyncRule } from './sync.ts';
import { decodeLossless } from './text.ts';

/** The columns of app.regras_desconto the engine needs, dates read as YYYY-MM-DD. */
export interface StoredRuleRow {
  id: number;
  /** As stored: non-LATIN1 characters escaped (text.ts, encodeLossless). */
  descricao: string;
  grupo: number | null;
  subgrupo: number | null;
  representante: number | null;
  id_pauta: number | null;
  percent: number;
  vigencia_inicio: string;
  /** null: open-ended. */
  vigencia_fim: string | null;
  promocao: boolean;
}

/** A stored rule for the engine: an open end becomes OPEN_ENDED_DATE, the description is decoded. */
export function ruleFromRow(row: StoredRuleRow): DiscountRule {
  return {
    id: row.id,
    descricao: decodeLossless(row.descricao),
    grupo: row.grupo,
    subgrupo: row.subgrupo,
    representante: row.representante,
    idPauta: row.id_pauta,
    percent: row.percent,
    vigenciaInicio: row.vigencia_inicio,
    vigenciaFim: row.vigencia_fim ?? OPEN_ENDED_DATE,
    promocao: row.promocao,
  };
}

/** The replicated document (collection regras) of a stored rule. */
export function ruleDocument(row: StoredRuleRow): SyncRule {
  return { ...ruleFromRow(row), id: String(row.id), _deleted: false };
}

/** A replicated rule document for the engine (the device's copy of ruleFromRow's result). */
export function ruleFromDocument(doc: Omit<SyncRule, '_deleted'>): DiscountRule {
  return {
    id: Number(doc.id),
    descricao: doc.descricao,
    // The device store requires only the id (client/src/db/schemas.ts): a scope it lacks is no scope.
    grupo: doc.grupo ?? null,
    subgrupo: doc.subgrupo ?? null,
    representante: doc.representante ?? null,
    idPauta: doc.idPauta ?? null,
    percent: doc.percent,
    vigenciaInicio: doc.vigenciaInicio,
    vigenciaFim: doc.vigenciaFim,
    promocao: doc.promocao,
  };
}
