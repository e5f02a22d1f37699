import { createApp } from "vue";
import App from "./App.vue";
import { applyTheme } from "./store";
import "./styles.css";

applyTheme();
createApp(App).mount("#app");
