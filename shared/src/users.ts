// Contracts of /usuarios: the admin's user management. The tenant is never in a body: it is
// the admin's own (id_empresa of the token), so an admin cannot create or touch a login of
// another company. The rules are the CLI's (server/src/users/service.ts): a representative or
// supervisor login points at a real ERP record, and every credential change revokes tokens.
import { z } from 'zod';
import { ZLogin, ZPassword, ZRole } from './auth.ts';
import { pageOf, ZPageQuery } from './pagination.ts';

const INT4_MAX = 2_147_483_647;

export const ZUserView = z
  .object({
    id: z.number().int().describe('User id'),
    login: z.string().describe('Login name (lower case)'),
    name: z.string().describe('Display name'),
    role: ZRole,
    codVendedor: z.number().int().nullable().describe('Representative code (cod_vendedor); only representatives'),
    codSupervisor: z.number().int().nullable().describe('Supervisor code (cod_supervisor); only supervisors'),
    active: z.boolean().describe('false: disabled, cannot log in and every token it held is revoked'),
    createdAt: z.string().describe('When the login was created (ISO 8601)'),
    updatedAt: z.string().describe('When the login last changed: password, activation (ISO 8601)'),
  })
  .describe('A login of the tenant (the password hash is never returned)');
export type UserView = z.infer<typeof ZUserView>;

export const ZUserListQuery = ZPageQuery.extend({
  q: z.string().trim().min(1).max(100).optional().describe('Part of the login or of the name, case-insensitive'),
  role: ZRole.optional().describe('Only logins of this role'),
  active: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: only active logins; false: only disabled ones; absent: both'),
}).describe('Filters and page of the user list');
export type UserListQuery = z.infer<typeof ZUserListQuery>;

export const ZUserPage = pageOf(ZUserView, 'A page of logins of the tenant, by name then login');
export type UserPage = z.infer<typeof ZUserPage>;

const optionalCode = (what: string) =>
  z.number().int().positive().max(INT4_MAX).nullable().default(null).describe(what);

export const ZUserCreateRequest = z
  .strictObject({
    login: ZLogin,
    name: z.string().trim().min(1, 'informe o nome').max(100).describe('Display name, 1 to 100 characters'),
    role: ZRole,
    codVendedor: optionalCode(
      'Representative code (cod_vendedor) of the tenant in the ERP: required for representatives, refused for other roles',
    ),
    codSupervisor: optionalCode(
      'Supervisor code (cod_supervisor) of the tenant in the ERP: required for supervisors, refused for other roles',
    ),
    password: ZPassword,
  })
  .superRefine((u, ctx) => {
    if (u.role === 'representative' && u.codVendedor === null)
      ctx.addIssue({ code: 'custom', path: ['codVendedor'], message: 'informe o código do vendedor' });
    if (u.role !== 'representative' && u.codVendedor !== null)
      ctx.addIssue({ code: 'custom', path: ['codVendedor'], message: 'só representantes têm código de vendedor' });
    if (u.role === 'supervisor' && u.codSupervisor === null)
      ctx.addIssue({ code: 'custom', path: ['codSupervisor'], message: 'informe o código do supervisor' });
    if (u.role !== 'supervisor' && u.codSupervisor !== null)
      ctx.addIssue({ code: 'custom', path: ['codSupervisor'], message: 'só supervisores têm código de supervisor' });
  })
  .describe('A new login of the admin’s own tenant');
export type UserCreateRequest = z.infer<typeof ZUserCreateRequest>;

export const ZUserActiveUpdate = z
  .strictObject({
    active: z.boolean().describe('false disables the login and revokes its tokens; true enables it again'),
  })
  .describe('Enable or disable a login');
export type UserActiveUpdate = z.infer<typeof ZUserActiveUpdate>;

export const ZUserPasswordReset = z
  .strictObject({ password: ZPassword })
  .describe('The new password; every token issued before stops working');
export type UserPasswordReset = z.infer<typeof ZUserPasswordReset>;

export const ZUserIdParams = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX).describe('User id'),
});
