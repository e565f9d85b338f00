// pt-BR display formats shared by the app's screens and the server's own texts (push
// notifications), so an amount reads the same wherever a person sees it.

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** An amount in reais: "R$ 1.234,50" (Intl puts a no-break space after the symbol). */
export const formatBrl = (value: number): string => brl.format(value);
