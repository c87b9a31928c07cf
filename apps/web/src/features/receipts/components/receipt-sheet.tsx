import { Anchor, Badge, Button, Group, Text, Title } from '@mantine/core';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { Link } from '../../../shared/router/react.tsx';
import type { Receipt } from '@ampere/domain/contract/receipt';
import { receiptView } from '@ampere/domain/receipt';
import { paths } from '../../../shared/paths.ts';
import { downloadReceiptPdf } from '../api/download-receipt-pdf.ts';
import classes from './receipt.module.css';

interface ReceiptSheetProps {
  receipt: Receipt;
  /** The trip page, when the viewer can open it (its owner). */
  myTripHref: string | null;
  pdfUrl: string;
  /** What follows the receipt on screen (the owner's share panel); never printed. */
  children?: ReactNode;
}

/**
 * Cards a renter closed still print: browsers that can show a closed disclosure's content from CSS
 * do it in the print stylesheet; for the others they are opened for the print and closed after.
 */
function usePrintOpensCards(root: RefObject<HTMLElement | null>) {
  useEffect(() => {
    let opened: HTMLDetailsElement[] = [];
    const before = () => {
      opened = [...(root.current?.querySelectorAll('details:not([open])') ?? [])] as HTMLDetailsElement[];
      for (const d of opened) d.open = true;
    };
    const after = () => {
      for (const d of opened) d.open = false;
      opened = [];
    };
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, [root]);
}

/**
 * Spec 2 'Receipt pages', once for both pages (the trip's and the shared link's): header 'Your
 * Receipts' with My Trip, Policies, Print and the PDF; the total, the car's MONEYSHOT photo, model,
 * VIN, the dates, the Damage Waiver badge, mileage and battery out and in; then one card per
 * payment, hold or refund (decision 051), the first open. Every word and number comes from the domain's `receiptView`, as in the PDF.
 */
export function ReceiptSheet({ receipt, myTripHref, pdfUrl, children }: ReceiptSheetProps) {
  const view = receiptView(receipt);
  const root = useRef<HTMLDivElement>(null);
  const [downloading, setDownloading] = useState(false);
  const [pdfError, setPdfError] = useState<string | null>(null);
  usePrintOpensCards(root);

  const download = async () => {
    setDownloading(true);
    setPdfError(null);
    try {
      await downloadReceiptPdf(pdfUrl);
    } catch (err) {
      console.error('receipt: the PDF could not be downloaded', err);
      setPdfError('The PDF could not be downloaded. Please try again.');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className={classes.sheet} ref={root}>
      <div className={classes.head}>
        <Title order={1}>{view.heading}</Title>
        <Group gap="xs" className={classes.actions}>
          {myTripHref && (
            <Anchor component={Link} to={myTripHref} size="sm" c="ampere.8" fw={600} mr={4}>
              My Trip
            </Anchor>
          )}
          <Button
            variant="default"
            size="xs"
            component="a"
            href={paths.policies()}
            target="_blank"
            rel="noopener noreferrer"
          >
            Policies
          </Button>
          <Button variant="default" size="xs" onClick={() => window.print()}>
            Print
          </Button>
          <Button size="xs" onClick={() => void download()} loading={downloading}>
            Download PDF
          </Button>
        </Group>
      </div>
      {pdfError && (
        <Text size="sm" c="red.9" role="alert" className={classes.actions}>
          {pdfError}
        </Text>
      )}
      <section className={classes.summary} aria-labelledby="receipt-total-label">
        {receipt.vehicle.image_url && (
          <img className={classes.photo} src={receipt.vehicle.image_url} alt={view.vehicle} />
        )}
        <div>
          <Text size="xs" c="dimmed" fw={700} tt="uppercase" id="receipt-total-label">
            Total paid
          </Text>
          <Text fw={800} fz={28} lh={1.2}>
            {view.total}
          </Text>
          {view.refunds && (
            <Text size="sm" fw={600}>
              Paid {view.refunds.paid} · Refunded {view.refunds.refunded}
            </Text>
          )}
          <Text fw={700} mt={6}>
            {view.vehicle}
          </Text>
          <Text size="sm">VIN {view.vin}</Text>
          <Text size="sm">
            {view.from} – {view.to}
          </Text>
          <Badge
            mt={8}
            variant="light"
            color={view.waiver.active ? 'green' : 'gray'}
            c={view.waiver.active ? 'ampere.9' : 'dark.6'}
            className={classes.badge}
          >
            {view.waiver.text}
          </Badge>
        </div>
        {view.readings.length > 0 && (
          <dl className={classes.readings} aria-label="Mileage and battery">
            {view.readings.map((r) => (
              <div key={r.label}>
                <dt>{r.label}</dt>
                <dd>{r.value}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      {view.cards.length === 0 ? (
        <Text>No payments on this trip yet.</Text>
      ) : (
        // The cards, the first open (spec 2): native disclosures, keyboard and screen-reader ready.
        <div className={classes.cards}>
          {view.cards.map((card, i) => (
            <details key={card.key} className={classes.card} open={i === 0}>
              <summary>
                <span>
                  <Text component="span" fw={700} display="block">
                    {card.title}
                  </Text>
                  <Text component="span" size="sm" c="dimmed" display="block">
                    {card.label} · {card.date}
                  </Text>
                </span>
                <Text component="span" fw={700}>
                  {card.total}
                </Text>
              </summary>
              <div className={classes.items}>
                {card.story && <p className={classes.story}>{card.story}</p>}
                {card.lines.map((line) => (
                  <div key={line.key} className={classes.line}>
                    <span>
                      {line.label}
                      {line.note && (
                        <Text component="span" size="sm" c="dimmed">
                          {' '}
                          · {line.note}
                        </Text>
                      )}
                    </span>
                    <span>{line.amount}</span>
                  </div>
                ))}
                <div className={`${classes.line} ${classes.cardTotal}`}>
                  <span>{card.totalLabel}</span>
                  <span>{card.total}</span>
                </div>
                {card.paidWith && (
                  <Text size="sm" c="dimmed" mt={4}>
                    {card.paidWith}
                  </Text>
                )}
              </div>
            </details>
          ))}
        </div>
      )}
      {children}
    </div>
  );
}
