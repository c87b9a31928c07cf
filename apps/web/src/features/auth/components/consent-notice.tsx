import { Anchor, Text } from '@mantine/core';
import { marketingLink, useClientConfig } from '../../../shared/api/config.ts';

function NewTabLink({ href, children }: { href: string; children: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" inherit underline="always">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </Anchor>
  );
}

/** Spec 2 (Login page): the SMS marketing consent notice with terms and privacy links. */
export function ConsentNotice() {
  const config = useClientConfig();
  return (
    <Text size="xs" c="dimmed" mt="lg">
      By continuing, you agree to receive text messages from {config.productName} at the number you enter, including
      sign-in codes, trip updates and occasional offers. Consent is not a condition of renting. Message frequency
      varies. Message and data rates may apply. Reply STOP to opt out or HELP for help. See our{' '}
      <NewTabLink href={marketingLink(config, '/terms')}>Terms of Service</NewTabLink> and{' '}
      <NewTabLink href={marketingLink(config, '/privacy')}>Privacy Policy</NewTabLink>.
    </Text>
  );
}
