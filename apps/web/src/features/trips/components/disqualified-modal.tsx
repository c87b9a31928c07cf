import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';
import { useClientConfig } from '../../../shared/api/config.ts';

export const DISQUALIFIED_TITLE = "Sorry, you don't currently qualify to rent with us.";

/** Spec 2 and 8: the soft credit check did not pass. 'Back to Home' goes to /. */
export function DisqualifiedModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { supportEmail, supportPhone } = useClientConfig();
  return (
    <Modal opened={opened} onClose={onClose} title={DISQUALIFIED_TITLE} centered size="md">
      <Stack gap="sm">
        <Text size="sm">
          Before every booking we run a soft credit check, which does not affect your credit score. Based on the result,
          we can't approve this rental right now, and your card has not been charged.
        </Text>
        <Text size="sm">
          You can get a free copy of your credit report from a credit bureau (Equifax, Experian or TransUnion, through{' '}
          <Anchor
            c="ampere.8"
            underline="always"
            href="https://www.annualcreditreport.com"
            target="_blank"
            rel="noopener"
            size="sm"
          >
            annualcreditreport.com
          </Anchor>
          ) to check it for errors.
        </Text>
        <Text size="sm">
          Questions? Contact our support team
          {supportEmail && (
            <>
              {' '}
              at{' '}
              <Anchor c="ampere.8" underline="always" href={`mailto:${supportEmail}`} size="sm">
                {supportEmail}
              </Anchor>
            </>
          )}
          {supportPhone && (
            <>
              {' '}
              or{' '}
              <Anchor c="ampere.8" underline="always" href={`tel:${supportPhone.replace(/[^+\d]/g, '')}`} size="sm">
                {supportPhone}
              </Anchor>
            </>
          )}
          .
        </Text>
        <Group justify="flex-end" mt="sm">
          <Button component={Link} to={paths.home()}>
            Back to Home
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
