// A bibliography as a numbered list of citations with PubMed and DOI links and abstracts.
import { doiUrl, formatCitation, parseBibliography, pubmedUrl } from "./bibliography";
import { TextViewer } from "./TextViewer";
import type { ViewerProps } from "./viewer-props";

export function BibliographyViewer(props: ViewerProps) {
  const content = props.artifact.content;
  if (content == null) return <TextViewer {...props} />;
  const parsed = parseBibliography(content);
  if (!parsed.ok) return <TextViewer {...props} note={parsed.message} />;
  const { references, skipped } = parsed;
  return (
    <>
      <p className="artifact-note">
        {references.length} reference{references.length === 1 ? "" : "s"}
        {skipped > 0 && ` (${skipped} without a title left out)`}
      </p>
      <ol className="bibliography">
        {references.map((ref, i) => {
          const pubmed = pubmedUrl(ref.pmid);
          const doi = doiUrl(ref.doi);
          return (
            <li key={`${ref.pmid ?? ""}-${i}`}>
              <p className="citation">{formatCitation(ref)}</p>
              {(pubmed || doi) && (
                <p className="citation-links">
                  {pubmed && (
                    <a href={pubmed} target="_blank" rel="noopener noreferrer">
                      PubMed
                    </a>
                  )}
                  {doi && (
                    <a href={doi} target="_blank" rel="noopener noreferrer">
                      DOI
                    </a>
                  )}
                </p>
              )}
              {ref.abstract && (
                <details className="citation-abstract">
                  <summary>Abstract</summary>
                  <p>{ref.abstract}</p>
                </details>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}
