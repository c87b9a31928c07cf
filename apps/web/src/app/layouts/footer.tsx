import { Anchor, Group, NativeSelect, SimpleGrid, Text } from '@mantine/core';
import { useClientConfig } from '../../shared/api/config.ts';
import type { FooterVariant } from '../route-handle.ts';
import classes from './shell.module.css';

const GROUPS: { title: string; links: [string, string][] }[] = [
  { title: 'Account', links: [['Sign In', '/login'], ['My Trips', '/trips'], ['Profile', '/profile']] },
  { title: 'Company', links: [['About', '/about'], ['Careers', '/careers'], ['Press', '/press']] },
  { title: 'Resources', links: [['Blog', '/blog'], ['FAQs', '/faqs'], ['Resources', '/resources']] },
  { title: 'Legal', links: [['Privacy', '/privacy'], ['Terms', '/terms'], ['Disclaimers', '/disclaimers']] },
];

/** Footer variants (spec 2): Default, Search (slim), Application (language and legal links). */
export function Footer({ variant }: { variant: FooterVariant }) {
  const { marketingSiteUrl, supportEmail } = useClientConfig();
  if (variant === 'none') return null;
  const site = (path: string) => (path.startsWith('/login') || path.startsWith('/trips') || path.startsWith('/profile') ? path : `${marketingSiteUrl}${path}`);
  const copyright = <Text size="sm" c="dark.3">Copyright 2022-2025 Ampere. All rights reserved.</Text>;
  if (variant === 'search' || variant === 'application') {
    return (
      <footer className={classes.footer}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          {copyright}
          <Group gap="md">
            {variant === 'application' && <NativeSelect size="xs" aria-label="Language" data={['English (US)']} />}
            <Anchor size="sm" href={site('/privacy')}>Privacy</Anchor>
            <Anchor size="sm" href={site('/terms')}>Terms</Anchor>
            <Anchor size="sm" href={site('/disclaimers')}>Disclaimers</Anchor>
            <Anchor size="sm" href={supportEmail ? `mailto:${supportEmail}` : site('/contact')}>Contact</Anchor>
          </Group>
        </Group>
      </footer>
    );
  }
  return (
    <footer className={classes.footer}>
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="lg">
        {GROUPS.map((g) => (
          <nav key={g.title} aria-label={g.title}>
            <Text fw={700} size="sm" mb={6}>{g.title}</Text>
            {g.links.map(([label, href]) => (
              <Anchor key={label} href={site(href)} size="sm" display="block" c="dark.6" mb={4}>{label}</Anchor>
            ))}
          </nav>
        ))}
      </SimpleGrid>
      {copyright}
    </footer>
  );
}
