import type { Role } from '@campo/shared';

/** The caller, as the auth middleware established it from a valid token and a live user row. */
export interface AuthContext {
  userId: number;
  login: string;
  name: string;
  role: Role;
  idEmpresa: number;
  codVendedor: number | null;
  codSupervisor: number | null;
}
