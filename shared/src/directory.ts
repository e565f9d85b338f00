// Contracts of the directory reads: the representatives, supervisors and price lists (pautas) of
// the tenant, by code and name, for the selectors of the rule editor and of the user form. They
// come from the ERP views; the lists are short (a distributor has tens to hundreds of each), so
// they are answered whole, without pages.
import { z } from 'zod';

export const ZDirectoryRep = z
  .object({
    codVendedor: z.number().int().describe('Representative code (cod_vendedor)'),
    nome: z.string().nullable().describe('Name, from the ERP'),
    codSupervisor: z.number().int().nullable().describe('Supervisor of the representative today, from the ERP'),
    ativo: z.boolean().describe('Whether the ERP record is active'),
  })
  .describe('A representative of the tenant');

export const ZDirectoryReps = z
  .object({ items: z.array(ZDirectoryRep).describe('By name, then code') })
  .describe('Representatives of the tenant (a supervisor gets their own team)');
export type DirectoryReps = z.infer<typeof ZDirectoryReps>;

export const ZDirectorySupervisor = z
  .object({
    codSupervisor: z.number().int().describe('Supervisor code (cod_supervisor)'),
    nome: z.string().nullable().describe('Name, from the ERP'),
    ativo: z.boolean().describe('Whether the ERP record is active'),
  })
  .describe('A supervisor of the tenant');

export const ZDirectorySupervisors = z
  .object({ items: z.array(ZDirectorySupervisor).describe('By name, then code') })
  .describe('Supervisors of the tenant');
export type DirectorySupervisors = z.infer<typeof ZDirectorySupervisors>;

export const ZDirectoryPauta = z
  .object({
    idPauta: z.number().int().describe('Price list id (id_pauta)'),
    descricao: z.string().nullable().describe('Price list name, from the ERP'),
    ativo: z.boolean().describe('Whether the price list is active in the ERP'),
  })
  .describe('A price list (pauta) of the tenant');

export const ZDirectoryPautas = z
  .object({ items: z.array(ZDirectoryPauta).describe('Active first, then by name') })
  .describe('Price lists of the tenant');
export type DirectoryPautas = z.infer<typeof ZDirectoryPautas>;
