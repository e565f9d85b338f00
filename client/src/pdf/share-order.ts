// Sends an order's PDF through the phone's share sheet (WhatsApp, e-mail...) with the Web Share
// API; where files cannot be shared (most desktops), the PDF is downloaded instead.
import type { Company, Order } from '@campo/shared';
import { orderPdf } from './order-pdf.ts';

export type ShareOutcome = 'shared' | 'downloaded' | 'cancelled';

export async function shareOrderPdf(order: Order, company: Company | null): Promise<ShareOutcome> {
  const blob = await orderPdf(order, company);
  const name = `pedido-${order.numPedSar}.pdf`;
  const file = new File([blob], name, { type: 'application/pdf' });
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: `Pedido nº ${order.numPedSar}` });
      return 'shared';
    } catch (err) {
      // Closing the share sheet is a choice, not a failure.
      if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled';
      throw err;
    }
  }
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // The click starts the download synchronously; the URL may go once the task ends.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return 'downloaded';
}
