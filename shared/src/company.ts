import { z } from 'zod';
import { CREDIT_POLICIES, DEFAULT_CREDIT_POLICY } from './credit.ts';
import { FLEX_OFF, type FlexPolicy } from './flex.ts';
import { ERP_ENCODINGS } from './latin1.ts';
import { ZPaymentTerm } from './orders.ts';

/** 500 KB as the spec says, read as 500 KiB: 512,000 bytes is accepted, 512,001 refused. */
export const LOGO_MAX_BYTES = 500 * 1024;
/** Largest width and height of a logo, in pixels: more is no use on a printed order. */
export const LOGO_MAX_DIMENSION = 4096;
/** Image types a logo may be, recognised by the file's bytes, never by its declared type. */
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Content-Type headers PUT /catalog/company/logo accepts (the bytes decide the real type). */
export const LOGO_UPLOAD_CONTENT_TYPES = [...LOGO_MIME_TYPES, 'application/octet-stream'] as const;

export const META_POSITIVACAO_DIA_MAX = 100_000;

/** What a manager sets for credit and flex (docs/credit-and-flex.md). */
export const ZMoneyRules = z
  .object({
    creditPolicy: z
      .enum(CREDIT_POLICIES)
      .describe(
        "An order beyond the client's available credit: 'flag' accepts it marked for the approver, 'block' refuses it (CREDIT_LIMIT_EXCEEDED), 'ignore' accepts it",
      ),
    flexCreditSharePercent: z
      .number()
      .min(0)
      .max(100)
      .multipleOf(0.01)
      .describe('Percent of the margin sold above the list price that goes to the flex balance, 0 to 100'),
    flexMaxBeyondCeilingPoints: z
      .number()
      .min(0)
      .max(100)
      .multipleOf(0.01)
      .describe("Percentage points a line's discount may go past its ceiling, paid by the flex balance; 0: flex off"),
  })
  .strict()
  .describe("The tenant's credit policy and flex settings");
export type MoneyRules = z.infer<typeof ZMoneyRules>;

/** The flex settings of the money rules, as lineFlex and orderFlex take them. */
export const flexPolicyOf = (rules: MoneyRules): FlexPolicy => ({
  creditSharePercent: rules.flexCreditSharePercent,
  maxBeyondCeilingPoints: rules.flexMaxBeyondCeilingPoints,
});

/** A tenant that never set them (no row in app.config_empresa): flag, flex off. */
export const DEFAULT_MONEY_RULES: MoneyRules = {
  creditPolicy: DEFAULT_CREDIT_POLICY,
  flexCreditSharePercent: FLEX_OFF.creditSharePercent,
  flexMaxBeyondCeilingPoints: FLEX_OFF.maxBeyondCeilingPoints,
};

export const ZCompany = z
  .object({
    idEmpresa: z.number().int().describe('Tenant: the head-office company id'),
    name: z.string().nullable().describe('Legal name (razão social)'),
    tradeName: z.string().nullable().describe('Trade name (nome fantasia)'),
    cnpj: z.string().nullable().describe('CNPJ, without mask'),
    stateRegistration: z.string().nullable().describe('State registration (inscrição estadual)'),
    address: z
      .object({
        street: z.string().nullable().describe('Street and number, as the ERP keeps them'),
        city: z.string().nullable().describe('City'),
        uf: z.string().nullable().describe('State, two letters'),
        cep: z.string().nullable().describe('Postal code (CEP), 8 digits'),
      })
      .describe('Address of the head office, printed on orders'),
    phone: z.string().nullable().describe('Phone'),
    logoBase64: z
      .string()
      .nullable()
      .describe('The logo printed on orders, as a data URL (data:image/png|jpeg|webp;base64,...); null when none'),
    metaPositivacaoDia: z
      .number()
      .int()
      .nullable()
      .describe('Daily positivation target: clients with an order per day; null when not set'),
    paymentTerms: z
      .array(ZPaymentTerm)
      .optional()
      .describe(
        'The active payment terms of the ERP (vw_condicoes_pagamento), by name; an order carries one of them. Absent in documents of servers older than terms',
      ),
    pautas: z
      .array(
        z
          .object({
            id: z.number().int().describe('Price list id (a client’s idPauta)'),
            descricao: z.string().describe("How the ERP names it: 'Tabela Varejo'"),
          })
          .describe('A price list'),
      )
      .optional()
      .describe('Every price list of the tenant (vw_pautas), so screens name them; absent from older servers'),
    moneyRules: ZMoneyRules.optional().describe(
      'The credit policy and flex settings the cart previews orders with offline; absent from older servers (then the defaults: flag, flex off)',
    ),
    erpEncoding: z
      .enum(ERP_ENCODINGS)
      .optional()
      .describe(
        'The encoding of the ERP database: the cart shows how text bound for the ERP will arrive only where it must change (LATIN1 and WIN1252 lack some characters, UTF8 none); absent from older servers (then LATIN1)',
      ),
  })
  .describe('The caller’s company (tenant) and its Campo settings');
export type Company = z.infer<typeof ZCompany>;

export const ZMetaPositivacaoDia = z
  .object({
    metaPositivacaoDia: z
      .number()
      .int()
      .min(0)
      .max(META_POSITIVACAO_DIA_MAX)
      .describe(
        `Daily positivation target: how many distinct clients should have a non-rejected order each day, 0 to ${META_POSITIVACAO_DIA_MAX}`,
      ),
  })
  .strict()
  .describe('The daily positivation target of the tenant');
export type MetaPositivacaoDia = z.infer<typeof ZMetaPositivacaoDia>;
