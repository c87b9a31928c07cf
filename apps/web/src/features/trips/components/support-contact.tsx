import { Anchor, Text } from '@mantine/core';
import { useClientConfig } from '../../../shared/api/config.ts';

/** How to reach support, as configured: the email and phone as links; nothing when neither is set. */
export function SupportContact() {
  const { supportEmail, supportPhone } = useClientConfig();
  if (!supportEmail && !supportPhone) return null;
  return (
    <Text>
      Support:{' '}
      {supportEmail && (
        <Anchor c="ampere.8" underline="always" href={`mailto:${supportEmail}`}>
          {supportEmail}
        </Anchor>
      )}
      {supportEmail && supportPhone && ' · '}
      {supportPhone && (
        <Anchor c="ampere.8" underline="always" href={`tel:${supportPhone.replace(/[^+\d]/g, '')}`}>
          {supportPhone}
        </Anchor>
      )}
    </Text>
  );
}
