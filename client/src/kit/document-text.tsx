// Documents and addresses on screen: masked by the shared formatters (a CPF or CNPJ, a CEP) and
// never broken across lines, so "11.222.333/0001-81" or "CEP 24260-761" reads as one piece on a
// 360 px phone (a browser breaks a line after "/" or "-" otherwise).
import { formatAddress } from '@campo/shared/format';
import { formatDocument } from './field-format.ts';

/** A CPF or CNPJ, masked, on one line. */
export function DocumentText(props: { value: string | null | undefined }) {
  return <span class="nowrap">{formatDocument(props.value)}</span>;
}

/** An address with its CEP masked and kept on one line. */
export function AddressText(props: { text: string }) {
  const parts = formatAddress(props.text).split(/(CEP \d{5}-\d{3})/);
  return (
    <>
      {parts.map((p, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
          <span key={i} class="nowrap">
            {p}
          </span>
        ) : (
          p
        ),
      )}
    </>
  );
}
