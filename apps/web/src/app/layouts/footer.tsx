import { Anchor, Group, NativeSelect, SimpleGrid, Text } from '@mantine/core';
import { marketingLink, useClientConfig } from '../../shared/api/config.ts';
import { useSession } from '../../shared/auth/use-session.ts';
import type { FooterVariant } from '../route-handle.ts';
import classes from './shell.module.css';

const GROUPS: { title: string; links: [string, string][] }[] = [
  {
    title: 'Account',
    links: [
      ['Sign In', '/login'],
      ['My Trips', '/trips'],
      ['Profile', '/profile'],
    ],
  },
  {
    title: 'Company',
    links: [
      ['About', '/about'],
      ['Careers', '/careers'],
      ['Press', '/press'],
    ],
  },
  {
    title: 'Resources',
    links: [
      ['Blog', '/blog'],
      ['FAQs', '/faqs'],
      ['Resources', '/resources'],
    ],
  },
  {
    title: 'Legal',
    links: [
      ['Privacy', '/privacy'],
      ['Terms', '/terms'],
      ['Disclaimers', '/disclaimers'],
    ],
  },
];

/** Footer variants (spec 2): Default, Search (slim), Application (language and legal links). */
export function Footer({ variant }: { variant: FooterVariant }) {
  const config = useClientConfig();
  const { supportEmail } = config;
  const signedIn = !!useSession();
  if (variant === 'none') return null;
  const site = (path: string) => (/^\/(login|logout|trips|profile)$/.test(path) ? path : marketingLink(config, path));
  // Signed in, the account links offer Log Out where Sign In would be.
  const groups = signedIn
    ? GROUPS.map((g) =>
        g.title === 'Account'
          ? {
              ...g,
              links: [
                ['Profile', '/profile'],
                ['My Trips', '/trips'],
                ['Log Out', '/logout'],
              ] as [string, string][],
            }
          : g,
      )
    : GROUPS;
  const copyright = (
    <Text size="sm" c="dark.3">
      Copyright 2022-2025 Ampere. All rights reserved.
    </Text>
  );
  if (variant === 'search' || variant === 'application') {
    return (
      <footer className={classes.footer}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          {copyright}
          <Group gap="md">
            {variant === 'application' && <NativeSelect size="xs" aria-label="Language" data={['English (US)']} />}
            <Anchor size="sm" href={site('/privacy')}>
              Privacy
            </Anchor>
            <Anchor size="sm" href={site('/terms')}>
              Terms
            </Anchor>
            <Anchor size="sm" href={site('/disclaimers')}>
              Disclaimers
            </Anchor>
            <Anchor size="sm" href={supportEmail ? `mailto:${supportEmail}` : site('/contact')}>
              Contact
            </Anchor>
          </Group>
        </Group>
      </footer>
    );
  }
  return (
    <footer className={classes.footer}>
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="lg">
        {groups.map((g) => (
          <nav key={g.title} aria-label={g.title}>
            <Text fw={700} size="sm" mb={6}>
              {g.title}
            </Text>
            {g.links.map(([label, href]) => (
              <Anchor key={label} href={site(href)} size="sm" display="block" c="dark.6" mb={4}>
                {label}
              </Anchor>
            ))}
          </nav>
        ))}
      </SimpleGrid>
      {copyright}
    </footer>
  );
}
