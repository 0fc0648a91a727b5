// Asking the Transformer's session why (sequence/session_why.h), instantiated in a file of its
// own: a build that binds none of it (the widgets' module) links none of it.
#include "sequence/session_why.h"

#include "transformer/session.h"

namespace lab {

template TransformerTranslateResult TransformerSession::translate_intervened(
    const std::string&, const TranslateOptions&);
template void TransformerSession::record_timeline(const std::string&, long, long);
template SessionAttribution TransformerSession::attribution(const std::string&,
                                                            const AttributionRequest&);

}  // namespace lab
