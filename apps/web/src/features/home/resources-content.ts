/**
 * What the home page's Resources section says. The full articles and answers live on the landing
 * site (its /resources, /blog/{slug} and /faqs); the answers here are short placeholders (spec 2).
 */
export const VIDEO = {
  title: 'How Ampere works',
  length: '0:12',
  src: '/videos/how-ampere-works.webm',
  captions: '/videos/how-ampere-works.vtt',
};

export const BLOG_TEASER = {
  slug: 'first-electric-road-trip',
  title: 'Your first electric road trip',
  excerpt: 'Where to charge, how far a full battery really goes, and why the first stop is the only one you will plan.',
};

export const FAQS: { question: string; answer: string }[] = [
  {
    question: 'How do I pick up the car?',
    answer: 'Your trip page has the pickup place, its instructions and your digital key from 30 minutes before pickup.',
  },
  {
    question: 'Do I need to charge before I return it?',
    answer: 'Bring it back above 10% (80% with Prepaid Charging) to avoid a recharge fee.',
  },
  { question: 'Can I cancel?', answer: 'Yes, free of charge until one day before pickup, from your trip page.' },
];
