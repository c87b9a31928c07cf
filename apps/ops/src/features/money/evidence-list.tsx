import { Anchor, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Evidence } from '@ampere/domain/contract/ops-money';
import { evidenceHref } from './money-api.ts';

/** A charge's evidence as staff see it: photos as thumbnails that open full size, documents as links, readings as text. */
export function EvidenceList({ evidence }: { evidence: Evidence[] }) {
  if (evidence.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No evidence.
      </Text>
    );
  const photos = evidence.filter((e) => e.kind === 'photo');
  const others = evidence.filter((e) => e.kind !== 'photo');
  return (
    <Stack gap={6} component="section" aria-label="Evidence">
      <Text size="sm" fw={600}>
        Evidence
      </Text>
      {photos.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          {photos.map((p) => (
            <Anchor
              key={p.id}
              href={evidenceHref(p)}
              target="_blank"
              rel="noopener"
              aria-label={`Open the photo: ${p.label}`}
            >
              <Image src={evidenceHref(p)} alt={p.label} h={100} fit="cover" radius="xs" />
            </Anchor>
          ))}
        </SimpleGrid>
      )}
      {others.map((e) =>
        e.kind === 'reading' ? (
          <Text size="sm" key={e.id}>
            Reading: {e.label}: <strong>{e.value}</strong>
          </Text>
        ) : (
          <Anchor size="sm" key={e.id} href={evidenceHref(e)} target="_blank" rel="noopener">
            Document: {e.label} (opens in a new tab)
          </Anchor>
        ),
      )}
    </Stack>
  );
}
