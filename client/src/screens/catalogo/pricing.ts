// The catalog's commercial conditions, evaluated on the device with the shared discount engine
// (the same code the cart and the server run), from the rules in force and the
// representative's ceilings the store replicates. The server stays the judge at order time.
import { businessDate } from '@campo/shared/dates';
import {
  type CartLineContext,
  type DiscountRule,
  lineCeiling,
  type RepresentativeCeilings,
  ruleMatches,
} from '@campo/shared/discount-engine';
import { ruleFromDocument } from '@campo/shared/discount-rules';
import { map, Observable } from 'rxjs';
import type { Store } from '../../data/store.ts';
import { collectionOf, type ProductDoc, type RuleDoc, type SettingsDoc } from '../../db/index.ts';

export interface Conditions {
  codVendedor: number;
  /** Today in São Paulo: a rule's vigência is in business days. */
  date: string;
  rules: DiscountRule[];
  ceilings: RepresentativeCeilings;
}

const NO_CEILINGS: RepresentativeCeilings = { defaultPercent: null, byCategory: {} };

/** The rules and ceilings of the signed-in representative, as they replicate. */
export function conditions$(s: Store): Observable<Conditions> {
  const rules$ = collectionOf(s.db, 'regras').find().$;
  const tetos$ = collectionOf(s.db, 'ajustes').findOne('tetos').$;
  return new Observable<Conditions>((sub) => {
    let rules: DiscountRule[] = [];
    let tetos: SettingsDoc['tetos'] = null;
    const emit = () =>
      sub.next({
        codVendedor: tetos?.codVendedor ?? s.user.codVendedor ?? -1,
        date: businessDate(),
        rules,
        ceilings: tetos ? { defaultPercent: tetos.defaultPercent, byCategory: tetos.byCategory } : NO_CEILINGS,
      });
    const a = rules$.pipe(map((docs) => docs.map((d) => ruleFromDocument(d.toJSON() as RuleDoc)))).subscribe((r) => {
      rules = r;
      emit();
    });
    const b = tetos$.subscribe((d) => {
      tetos = d ? ((d.toJSON() as SettingsDoc).tetos ?? null) : null;
      emit();
    });
    return () => {
      a.unsubscribe();
      b.unsubscribe();
    };
  });
}

/** A product as the engine sees a cart line; -1 stands for "no group", which only null rules match. */
export function lineOf(p: ProductDoc, c: Conditions, idPauta: number | null): CartLineContext {
  return {
    codVendedor: c.codVendedor,
    idPauta: idPauta ?? -1,
    date: c.date,
    product: { categoria: p.category ?? '', grupo: p.grupo ?? -1, subgrupo: p.subgrupo ?? -1 },
  };
}

export interface Badges {
  promo: DiscountRule | null;
  special: DiscountRule | null;
}

/** 'Promoção' and 'Cond. especial': the best rule of each kind in force today on this pauta. */
export function badgesOf(p: ProductDoc, c: Conditions, idPauta: number | null): Badges {
  const line = lineOf(p, c, idPauta);
  const matching = c.rules.filter((r) => ruleMatches(r, line));
  const best = (rules: DiscountRule[]) =>
    rules.reduce<DiscountRule | null>((b, r) => (!b || r.percent > b.percent ? r : b), null);
  return { promo: best(matching.filter((r) => r.promocao)), special: best(matching.filter((r) => !r.promocao)) };
}

/**
 * Rules that reach the product whatever the pauta or the day (the collection holds only
 * rules in force today or later): what the detail lists.
 */
export function rulesReaching(p: ProductDoc, c: Conditions): DiscountRule[] {
  return c.rules
    .filter(
      (r) =>
        (r.grupo === null || r.grupo === p.grupo) &&
        (r.subgrupo === null || r.subgrupo === p.subgrupo) &&
        (r.representante === null || r.representante === c.codVendedor),
    )
    .sort((a, b) => b.percent - a.percent || a.vigenciaInicio.localeCompare(b.vigenciaInicio) || a.id - b.id);
}

export function ceilingOf(p: ProductDoc, c: Conditions, idPauta: number | null) {
  return lineCeiling(lineOf(p, c, idPauta), c.ceilings, c.rules);
}

export function priceOn(p: ProductDoc, idPauta: number | null): number | null {
  if (idPauta === null) return null;
  return p.prices.find((x) => x.idPauta === idPauta)?.price ?? null;
}
