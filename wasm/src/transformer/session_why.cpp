// Asking the Transformer's session why (sequence/session_why.h), instantiated in a file of its
// own: a build that binds none of it (the widgets' module) links none of it.
#include "sequence/session_why.h"

#include "transformer/session.h"

namespace lab {

template TransformerTranslateResult
TranslatorSession<TransformerSessionConfig>::translate_intervened(const std::string&,
                                                                  const TranslateOptions&);
template void TranslatorSession<TransformerSessionConfig>::record_timeline(const std::string&, long,
                                                                           long);
template SessionAttribution TranslatorSession<TransformerSessionConfig>::attribution(
    const std::string&, const AttributionRequest&);

}  // namespace lab
