// Asking the recurrent translator's session why (sequence/session_why.h), instantiated in a file
// of its own: a build that binds none of it (the widgets' module) links none of it.
#include "sequence/session_why.h"

#include "rnn/session.h"

namespace lab {

template TranslateResult TranslatorSession<SessionConfig>::translate_intervened(
    const std::string&, const TranslateOptions&);
template void TranslatorSession<SessionConfig>::record_timeline(const std::string&, long, long);
template SessionAttribution TranslatorSession<SessionConfig>::attribution(
    const std::string&, const AttributionRequest&);

}  // namespace lab
