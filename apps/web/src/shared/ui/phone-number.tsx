import { useEffect, useState } from 'react';
import { formatNorthAmericanPhone } from '@ampere/domain/account';

/**
 * A phone number as the renter writes it (the domain's `formatPhone`): a North American number at
 * once; any other in E.164 until the phone library, loaded only then, writes it in international
 * form (decision 105). The server's drawing and the first render agree, so the take-over does too.
 */
export function usePhoneForDisplay(e164: string): string {
  const quick = formatNorthAmericanPhone(e164);
  const [international, setInternational] = useState<{ e164: string; text: string } | null>(null);
  useEffect(() => {
    if (quick !== null) return;
    let live = true;
    void import('@ampere/domain/phone').then(({ formatPhone }) => {
      if (live) setInternational({ e164, text: formatPhone(e164) });
    });
    return () => {
      live = false;
    };
  }, [e164, quick]);
  return quick ?? (international?.e164 === e164 ? international.text : e164);
}

/** `usePhoneForDisplay` as an element, for a number shown in a list or a sentence. */
export function PhoneNumber({ e164 }: { e164: string }) {
  return usePhoneForDisplay(e164);
}
