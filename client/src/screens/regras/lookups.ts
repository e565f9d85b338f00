// The selectors' data of the rule editor and the preview, fetched once per visit.
import { useApi } from '../../kit/use-api.ts';

export function useLookups() {
  const groups = useApi('/politicas/grupos-produto');
  const reps = useApi('/vendedores');
  const pautas = useApi('/pautas');
  return {
    groups: groups.data?.items ?? [],
    reps: reps.data?.items ?? [],
    pautas: pautas.data?.items ?? [],
    error: groups.error ?? reps.error ?? pautas.error,
  };
}

export const repName = (r: { codVendedor: number; nome: string | null }) =>
  `${r.nome ?? 'Sem nome'} (${r.codVendedor})`;
export const pautaName = (p: { idPauta: number; descricao: string | null }) =>
  `${p.descricao ?? 'Pauta'} (${p.idPauta})`;
