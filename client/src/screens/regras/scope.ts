// What a rule reaches, in names: the ERP's group, subgroup, pauta and representative names
// (the editor's lookups), the code only as secondary detail or until the names arrive.
import type { PolicyRule } from '@campo/shared';
import type { useLookups } from './lookups.ts';

type Lookups = Pick<ReturnType<typeof useLookups>, 'groups' | 'reps' | 'pautas'>;

const named = (name: string | null | undefined, fallback: string) => (name ? name : fallback);

export function ruleScope(r: Pick<PolicyRule, 'grupo' | 'subgrupo' | 'representante' | 'idPauta'>, l: Lookups): string {
  const group = r.grupo === null ? null : l.groups.find((g) => g.codGrupo === r.grupo);
  const sub = r.subgrupo === null ? null : group?.subgrupos.find((s) => s.codSubgrupo === r.subgrupo);
  const rep = r.representante === null ? null : l.reps.find((x) => x.codVendedor === r.representante);
  const pauta = r.idPauta === null ? null : l.pautas.find((p) => p.idPauta === r.idPauta);
  return [
    r.grupo === null
      ? 'todos os grupos'
      : named(group?.descricao, `grupo ${r.grupo}`) +
        (r.subgrupo === null ? '' : ` › ${named(sub?.descricao, `subgrupo ${r.subgrupo}`)}`),
    r.representante === null ? 'todos os representantes' : named(rep?.nome, `representante ${r.representante}`),
    r.idPauta === null ? 'todas as pautas' : named(pauta?.descricao, `pauta ${r.idPauta}`),
  ].join(' · ');
}
