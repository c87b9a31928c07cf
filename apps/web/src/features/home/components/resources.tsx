import { Anchor, SimpleGrid, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { marketingLink, useClientConfig } from '../../../shared/api/config.ts';
import { BLOG_TEASER, FAQS, VIDEO } from '../resources-content.ts';
import classes from './home.module.css';

function NewTabLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Anchor
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      fw={700}
      size="sm"
      c="ampere.8"
      className={classes.push}
    >
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </Anchor>
  );
}

/** The clip loads and plays only once asked: until then a poster with a play button. */
function Video() {
  const [playing, setPlaying] = useState(false);
  if (playing) {
    return (
      <video className={classes.video} src={VIDEO.src} controls autoPlay playsInline aria-label={VIDEO.title}>
        <track kind="captions" src={VIDEO.captions} srcLang="en" label="English" default />
      </video>
    );
  }
  return (
    // Named by the words it shows, after what it does (WCAG 2.5.3): 'Play video: {title} · {length}'.
    <UnstyledButton className={classes.poster} onClick={() => setPlaying(true)}>
      <VisuallyHidden>Play video: </VisuallyHidden>
      <span className={classes.play} aria-hidden="true">
        <svg width="22" height="22" viewBox="0 0 24 24">
          <path d="M7 4v16l13-8z" fill="#0b3d2e" />
        </svg>
      </span>
      <span className={classes.posterCaption}>{`${VIDEO.title} · ${VIDEO.length}`}</span>
    </UnstyledButton>
  );
}

/**
 * Resources (spec 2): a short video, a blog teaser and FAQs, each leading in a new tab to the
 * landing site (MARKETING_SITE_URL): its /resources, /blog/{slug} and /faqs.
 */
export function Resources() {
  const config = useClientConfig();
  return (
    <section aria-labelledby="home-resources">
      <div className={classes.sectionHead}>
        <Title order={2} size="h3" id="home-resources">
          Resources
        </Title>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <article className={classes.resource} aria-labelledby="home-video">
          <Video />
          <Title order={3} size="h5" id="home-video">
            {VIDEO.title}
          </Title>
          <Text size="sm">Search, book, verify and unlock: a whole trip in twelve seconds.</Text>
          <NewTabLink href={marketingLink(config, '/resources')}>More resources</NewTabLink>
        </article>
        <article className={classes.resource} aria-labelledby="home-blog">
          <div className={classes.cover} aria-hidden="true">
            <svg
              width="64"
              height="64"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M9 2v5M15 2v5M6 7h12v4a6 6 0 0 1-12 0zM12 17v5" />
            </svg>
          </div>
          <Text size="xs" fw={700} tt="uppercase" c="ampere.8">
            From the blog
          </Text>
          <Title order={3} size="h5" id="home-blog">
            {BLOG_TEASER.title}
          </Title>
          <Text size="sm">{BLOG_TEASER.excerpt}</Text>
          <NewTabLink href={marketingLink(config, `/blog/${BLOG_TEASER.slug}`)}>Read the post</NewTabLink>
        </article>
        <article className={classes.resource} aria-labelledby="home-faqs">
          <Title order={3} size="h5" id="home-faqs">
            FAQs
          </Title>
          <div>
            {FAQS.map((f) => (
              <details key={f.question} className={classes.faq}>
                <summary>{f.question}</summary>
                <p>{f.answer}</p>
              </details>
            ))}
          </div>
          <NewTabLink href={marketingLink(config, '/faqs')}>All FAQs</NewTabLink>
        </article>
      </SimpleGrid>
    </section>
  );
}
