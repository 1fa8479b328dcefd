/** The demo workspace: documents about Orbitdesk, a help-desk product made up for this project. */
export const DEMO_DOCUMENTS: Record<string, string> = {
  'orbitdesk-overview.md': `# Orbitdesk overview

Orbitdesk is a help-desk product made by Kestrel Labs for support teams of 5 to 500 agents.
It collects customer requests from e-mail, chat and web forms into one shared inbox of tickets.

## Core features

Smart routing assigns each new ticket to the agent group whose skills match the request, using the ticket's language, product area and customer tier.
SLA timers show how long is left before a first response or resolution target is missed; a timer turns amber at 75 percent and red when breached.
The Canvas editor lets agents write replies with saved snippets, inline images and suggested answers drawn from the knowledge base.
Orbitdesk Insights reports on backlog, first response time, resolution time and customer satisfaction (CSAT) by team and by week.

## Who uses it

Typical customers are software companies, online retailers and travel agencies. The mobile app for iOS and Android lets agents answer tickets on the go.`,

  'pricing.md': `# Orbitdesk pricing

Orbitdesk has three plans, billed per agent per month.

The Starter plan costs 12 dollars per agent per month and includes the shared inbox, e-mail channel, SLA timers and up to 3 agent groups.
The Growth plan costs 29 dollars per agent per month and adds live chat, smart routing, Orbitdesk Insights and the Slack bridge.
The Enterprise plan has custom pricing and adds single sign-on (SSO), audit logs, data residency in the EU or US, and a 99.95 percent uptime commitment.

Paying annually gives a 20 percent discount on Starter and Growth.
Every new workspace starts with a free 21-day trial of the Growth plan; no credit card is needed.
Nonprofit organisations get 50 percent off any plan after a short verification.`,

  'release-notes-v2.md': `# Orbitdesk release notes

## Version 2.0 "Aurora"

Aurora introduced auto-triage, which tags and prioritises incoming tickets with a confidence score.
SLA timers can now be paused while a ticket waits for the customer.
Dark mode is available in the web app and the mobile apps.

## Version 2.1

The Slack bridge posts new urgent tickets to a Slack channel and lets agents reply from Slack.
Bulk actions can merge up to 50 duplicate tickets at once.

## Version 2.2

The legacy REST API v0 is deprecated and will be switched off on 30 June; integrations must move to API v1.
Exports to CSV now include custom fields and SLA breach flags.`,

  'troubleshooting.html': `<html><head><title>Troubleshooting Orbitdesk</title></head><body>
<h1>Troubleshooting</h1>
<h2>E-mail sync</h2>
<p>Error E-4102 means the IMAP server refused Orbitdesk's login. Reconnect the mailbox under Settings &gt; Channels &gt; E-mail and check that app passwords are allowed.</p>
<p>Error E-4310 means the mailbox is over its provider's quota; Orbitdesk retries every 15 minutes until space is freed.</p>
<h2>Single sign-on</h2>
<p>If agents are sent back to the login page after SSO, check that the identity provider sends the e-mail attribute and that the clock skew is under 5 minutes.</p>
<h2>Exports</h2>
<p>A single export is limited to 100,000 tickets; larger exports should be split by date range.</p>
</body></html>`,

  'security-faq.txt': `Orbitdesk security FAQ

Where is my data stored? Enterprise customers choose EU (Frankfurt) or US (Oregon) data residency; other plans are hosted in the US.
How is data protected? All data is encrypted in transit with TLS 1.3 and at rest with AES-256.
Which certifications does Orbitdesk hold? Kestrel Labs holds SOC 2 Type II and ISO 27001 certifications, renewed every year.
What happens to data after cancellation? Ticket data is kept for 90 days after a workspace is cancelled, then permanently deleted.
How do I report a vulnerability? Write to security@orbitdesk.example; reports are acknowledged within 2 business days.`,

  'sla-policies.csv': `priority,first response,resolution
Urgent,30 minutes,4 hours
High,2 hours,1 business day
Normal,8 hours,3 business days
Low,1 business day,5 business days`,

  'integrations.json': JSON.stringify(
    {
      integrations: [
        {
          name: 'Slack bridge',
          plan: 'Growth',
          description: 'Posts urgent tickets to Slack and lets agents reply from Slack',
        },
        {
          name: 'Jira link',
          plan: 'Growth',
          description: 'Links tickets to Jira issues and syncs their status',
        },
        {
          name: 'Shopify orders',
          plan: 'Starter',
          description: 'Shows the customer order history next to each ticket',
        },
        {
          name: 'Salesforce sync',
          plan: 'Enterprise',
          description: 'Keeps Orbitdesk contacts in sync with Salesforce accounts',
        },
      ],
    },
    null,
    2,
  ),

  'empty-notes.txt': '',
};

/**
 * Pictures read by OCR: a diagram with labels and a caption, and a signed page scanned into a
 * PDF (no text layer). Made once by scripts/demo-assets.js; shipped in assets/demo/.
 */
export const DEMO_SCANS = ['architecture-diagram.png', 'signed-agreement-scanned.pdf'];

export const DEMO_USERS = [
  ['Ada Okafor', 'ada@orbitdesk.example'],
  ['Zoë Müller', 'zoe.mueller@orbitdesk.example'],
  ['Łukasz Nowak', 'lukasz@orbitdesk.example'],
  ['Priya Raman', 'priya.raman@orbitdesk.example'],
  ['Mateo García', 'mateo@orbitdesk.example'],
  ['Hana Satō', 'hana.sato@orbitdesk.example'],
] as const;

export const DEMO_THREADS = [
  {
    title: 'Pricing questions for the Q3 renewal',
    status: 'OPEN',
    messages: [
      ['user', 'How much is the Growth plan per agent?'],
      [
        'assistant',
        'The Growth plan costs 29 dollars per agent per month and adds live chat, smart routing, Orbitdesk Insights and the Slack bridge.\n\nSources: [pricing.md]',
      ],
    ],
  },
  {
    title: 'SSO rollout checklist',
    status: 'CLOSED',
    messages: [
      ['user', 'Agents are sent back to the login page after SSO. Why?'],
      [
        'assistant',
        'Check that the identity provider sends the e-mail attribute and that the clock skew is under 5 minutes.\n\nSources: [troubleshooting.html]',
      ],
    ],
  },
  {
    title: 'Migration from API v0',
    status: 'ARCHIVED',
    messages: [['user', 'When is API v0 switched off?']],
  },
] as const;

export const OTHER_WORKSPACE = {
  name: 'acme',
  users: [['Wile E. Coyote', 'wile@acme.example']] as const,
  thread: 'Acme private thread',
  document: [
    'acme-roadmap.md',
    '# Acme roadmap\n\nThe rocket skates ship in spring. This document is private to the acme workspace.',
  ] as const,
};
