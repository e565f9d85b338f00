// Representatives by name on the online screens (approval queue, review, the company's SAC):
// the ERP's name from the directory the caller may read, the code only until it arrives or
// for a representative the directory no longer lists.
import { useApi } from './use-api.ts';

export function useRepName(): (codVendedor: number) => string {
  const reps = useApi('/vendedores');
  const names = new Map((reps.data?.items ?? []).map((r) => [r.codVendedor, r.nome]));
  return (codVendedor) => names.get(codVendedor) || `Vendedor ${codVendedor}`;
}
