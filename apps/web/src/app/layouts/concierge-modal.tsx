import { Button, Image, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from '../../shared/router/react.tsx';
import { useClientConfig } from '../../shared/api/config.ts';
import { paths } from '../../shared/paths.ts';
import { smsLink } from '../../shared/sms-link.ts';

/** One-way trips are booked by text with our concierge: the number, a QR code of it, and the self-serve way. */
export function ConciergeModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { conciergePhone } = useClientConfig();
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (!opened || !conciergePhone) return;
    let live = true;
    import('qrcode')
      .then((m) =>
        m.toDataURL(smsLink(conciergePhone), { margin: 1, width: 200, color: { dark: '#0b3d2e', light: '#ffffff' } }),
      )
      .then((url) => live && setQr(url))
      .catch((err) => console.error('QR code failed', err));
    return () => {
      live = false;
    };
  }, [opened, conciergePhone]);
  return (
    <Modal opened={opened} onClose={onClose} title="Book by text with our concierge" centered>
      <Stack align="center" gap="sm">
        <Text size="sm">
          Planning a one-way trip, or a car that needs a hand-off? Text our concierge and we'll book it for you.
        </Text>
        {qr && <Image src={qr} alt={`QR code: text ${conciergePhone}`} w={200} h={200} />}
        <Button component="a" href={smsLink(conciergePhone)} fullWidth>
          Text {conciergePhone}
        </Button>
        <Text size="sm" c="dark.3">
          Or book a round trip yourself:
        </Text>
        <Button component={Link} to={paths.search()} variant="outline" fullWidth onClick={onClose}>
          Search Vehicles
        </Button>
      </Stack>
    </Modal>
  );
}
