import { z } from 'zod';

export const ZRole = z
  .enum(['representative', 'supervisor', 'manager', 'admin'])
  .describe(
    'representative: own portfolio and orders; supervisor: approves the team it supervises; manager: commercial policy, company settings and every team; admin: everything in the tenant, users included',
  );
export type Role = z.infer<typeof ZRole>;

export const ZLogin = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(100)
  .regex(/^[a-z0-9._@+-]+$/, 'use letras, números e . _ @ + -')
  .describe('Login name, usually the e-mail; case-insensitive');

/** A head office's id_empresa, for a login held in several tenants (migration 0016). */
const ZLoginCompany = z
  .number()
  .int()
  .positive()
  .max(2_147_483_647)
  .optional()
  .describe(
    'The company (tenant: head-office id_empresa, its code) to log into. Needed only for a login held in more than one company: without it, a password that opens any of them answers 409 LOGIN_COMPANY_REQUIRED, which names no company (docs/security.md)',
  );

export const ZLoginRequest = z
  .object({
    login: ZLogin,
    password: z.string().min(1).max(200).describe('The password'),
    empresa: ZLoginCompany,
  })
  .strict()
  .describe('Credentials');
export type LoginRequest = z.infer<typeof ZLoginRequest>;

export const ZDevLoginRequest = z
  .object({ login: ZLogin, empresa: ZLoginCompany })
  .strict()
  .describe('Development login: a token for an existing active user, without password (only with DEV_LOGIN=1)');

export const ZSessionUser = z
  .object({
    id: z.number().int().describe('User id'),
    login: z.string().describe('Login name'),
    name: z.string().describe('Display name'),
    role: ZRole,
    idEmpresa: z.number().int().describe('Tenant: the head-office company (id_empresa) the user belongs to'),
    codVendedor: z.number().int().nullable().describe('Representative code (cod_vendedor) for representatives'),
    codSupervisor: z.number().int().nullable().describe('Supervisor code (cod_supervisor) for supervisors'),
  })
  .describe('Who is logged in');
export type SessionUser = z.infer<typeof ZSessionUser>;

export const ZSession = z
  .object({
    token: z.string().describe('Bearer token (JWT, HS256) for the Authorization header'),
    expiresAt: z.string().describe('When the token stops being accepted (ISO 8601)'),
    user: ZSessionUser,
  })
  .describe('A new session');
export type Session = z.infer<typeof ZSession>;

export const ZPassword = z
  .string()
  .min(8, 'a senha precisa de pelo menos 8 caracteres')
  .max(200)
  .describe('Password, 8 to 200 characters');

export const ZUserCreate = z
  .object({
    login: ZLogin,
    name: z.string().trim().min(1).max(100).describe('Display name'),
    role: ZRole,
    idEmpresa: z.number().int().positive().describe('Tenant (head-office id_empresa)'),
    codVendedor: z.number().int().positive().nullable().default(null).describe('Required for representatives'),
    codSupervisor: z.number().int().positive().nullable().default(null).describe('Required for supervisors'),
    password: ZPassword,
  })
  .superRefine((u, ctx) => {
    if (u.role === 'representative' && u.codVendedor === null)
      ctx.addIssue({ code: 'custom', path: ['codVendedor'], message: 'obrigatório para representantes' });
    if (u.role !== 'representative' && u.codVendedor !== null)
      ctx.addIssue({ code: 'custom', path: ['codVendedor'], message: 'só representantes têm código de vendedor' });
    if (u.role === 'supervisor' && u.codSupervisor === null)
      ctx.addIssue({ code: 'custom', path: ['codSupervisor'], message: 'obrigatório para supervisores' });
    if (u.role !== 'supervisor' && u.codSupervisor !== null)
      ctx.addIssue({ code: 'custom', path: ['codSupervisor'], message: 'só supervisores têm código de supervisor' });
  })
  .describe('A new user');
export type UserCreate = z.infer<typeof ZUserCreate>;
