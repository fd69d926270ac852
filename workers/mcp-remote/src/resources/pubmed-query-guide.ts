// A short guide to PubMed's query syntax, served as a resource for models writing queries.
export const PUBMED_QUERY_GUIDE = `# PubMed query syntax

- **Boolean operators** in capitals: \`AND\`, \`OR\`, \`NOT\`; group with parentheses:
  \`(olaparib OR niraparib) AND ovarian cancer\`.
- **Phrases** in double quotes: \`"breast cancer"\`.
- **Field tags** after a term: \`[ti]\` title, \`[tiab]\` title and abstract, \`[au]\` author
  (\`Moore KN[au]\`), \`[mh]\` MeSH heading, \`[pt]\` publication type
  (\`randomized controlled trial[pt]\`, \`review[pt]\`), \`[dp]\` publication date, \`[la]\` language.
- **Truncation** with \`*\` at the end of a word: \`inhibit*\`.
- **Date ranges** with a colon: \`2018:2024[dp]\` (pubmed_search also takes \`minDate\` and
  \`maxDate\`).
- Untagged terms are mapped to MeSH terms and synonyms automatically; a tag or quotes turn
  that off for the term.
`;
